"""LARS (``mindspore.nn.LARS``): layer-wise adaptive rate scaling (You et al. 2017) around another optimizer.

Each filtered parameter's gradient is replaced by trust * (g + wd w) with trust = coefficient ||w|| /
(||g|| + wd ||w|| + epsilon) (1 where either norm is 0; with use_clip, min(trust / lr, 1)); the wrapped
optimizer then steps with those gradients. As MindSpore does, LARS takes over the wrapped optimizer's weight
decay and loss scale (it sets them off there) and shares its parameters, groups and step counter."""
import numbers

from sprout import ops
from sprout._frontend import is_building_graph
from sprout.nn.cell import Cell
from sprout.nn.optim.optimizer import Optimizer


def _default_lars_filter(param):
    return "LayerNorm" not in param.name and "bias" not in param.name


class LARS(Optimizer):
    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False,
                 lars_filter=_default_lars_filter):
        # Not Optimizer.__init__: the parameters, groups and step counter are the wrapped optimizer's.
        Cell.__init__(self, auto_prefix=False)
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"LARS: 'optimizer' must be an nn.Optimizer, but got {type(optimizer).__name__}")
        for name, value in (("epsilon", epsilon), ("coefficient", coefficient)):
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise TypeError(f"LARS: '{name}' must be a float, but got {type(value).__name__}")
        if not isinstance(use_clip, bool):
            raise TypeError(f"LARS: 'use_clip' must be a bool, but got {type(use_clip).__name__}")
        if not callable(lars_filter):
            raise TypeError(f"LARS: 'lars_filter' must be callable, but got {type(lars_filter).__name__}")
        self.opt = optimizer
        self.epsilon, self.coefficient, self.use_clip = float(epsilon), float(coefficient), use_clip
        self._groups = optimizer._groups
        self._parameters = optimizer.parameters
        self._index = optimizer._index
        self.global_step = optimizer.global_step
        self.learning_rate = optimizer.learning_rate
        self.loss_scale = optimizer.loss_scale
        self.lars_flag = tuple(bool(lars_filter(p)) for p in self._parameters)
        # The decay each parameter had in the wrapped optimizer is applied here, inside the trust ratio, so the
        # wrapped optimizer must not add it again, nor divide by the loss scale a second time.
        self._decay = [[group["weight_decay"] if decay else 0.0 for decay in group["decay"]] for group in self._groups]
        for group in self._groups:
            group["decay"] = [False] * len(group["params"])
        optimizer.loss_scale = 1.0

    def _lars_gradient(self, p, g, wd, lr):
        w_norm = ops.sqrt((p * p).sum())
        g_norm = ops.sqrt((g * g).sum())
        trust = self.coefficient * w_norm / (g_norm + wd * w_norm + self.epsilon)
        if self.use_clip:
            trust = ops.minimum(trust / lr, 1.0)
        both_nonzero = ops.logical_and(w_norm > 0, g_norm > 0)
        trust = ops.select(both_nonzero, trust, ops.ones_like(trust))
        return trust * (g + wd * p) if wd else trust * g

    def construct(self, gradients):
        grads = tuple(gradients)
        if len(grads) != len(self._parameters):
            raise ValueError(f"LARS: got {len(grads)} gradients for {len(self._parameters)} parameters")
        graph = is_building_graph()
        step = None if graph else self._step()
        new_grads = list(grads)
        for group, decays in zip(self._groups, self._decay):
            lr = group["lr"].in_graph(self.global_step + 0) if graph else group["lr"].at(step)
            for p, wd in zip(group["params"], decays):
                i = self._index[id(p)]
                g = grads[i].astype(p.dtype, copy=False)
                if self.loss_scale != 1.0:
                    g = g / self.loss_scale
                if self.lars_flag[i]:
                    # MindSpore divides the decay by the loss scale here too (its LARS passes
                    # weight_decay / loss_scale to LARSUpdate); kept so training runs as there.
                    g = self._lars_gradient(p, g, wd / self.loss_scale, lr)
                new_grads[i] = g
        return self.opt(tuple(new_grads))
