"""sprout.experimental.optim: MindSpore's PyTorch-style optimizers and lr schedulers.

The expected values are PyTorch 2's (torch.optim and torch.optim.lr_scheduler run on the same problem and
pasted here; see each table), since the update rules are PyTorch's; each optimizer also runs compiled
(ms.jit around grad_fn and optimizer(grads)) and must match its eager run.
"""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops
from sprout.experimental import optim
from sprout.experimental.optim import lr_scheduler

W0 = np.array([[0.5, -1.2, 0.3], [2.0, -0.7, 0.1]], np.float32)


def gradients():
    """Three steps' gradients; the second flips the first's sign (Rprop's backtracking)."""
    g1 = np.sin(W0 * 3.1 + 1.0).astype(np.float32)
    g3 = np.cos(W0 * 1.7 - 0.3).astype(np.float32)
    return [g1, -g1 * 0.5, g3]


# (optimizer, options, the parameter after 3 steps (RAdam: 9, the gradients three times over, so that its
# rectified steps from the 6th on are reached) in torch.optim)
OPT_EXPECTED = [
    ('SGD', {'lr': 0.1},
     [0.3868633508682251, -1.109982967376709, 0.15538805723190308, 2.060230016708374, -0.6620333194732666, -0.04746543616056442]),
    ('SGD', {'lr': 0.1, 'momentum': 0.9, 'dampening': 0.1, 'weight_decay': 0.01},
     [0.3173326849937439, -1.055234432220459, 0.03700384870171547, 1.9323045015335083, -0.5330210328102112, -0.1687082201242447]),
    ('SGD', {'lr': 0.1, 'momentum': 0.9, 'nesterov': True, 'maximize': True},
     [0.7782009243965149, -1.4174373149871826, 0.680925190448761, 1.9755648374557495, -0.8765497803688049, 0.4897496998310089]),
    ('SGD', {'lr': 0.1, 'dampening': 0.5, 'weight_decay': 0.1},
     [0.37284380197525024, -1.0749515295028687, 0.1478726714849472, 2.0020108222961426, -0.642614483833313, -0.04899591952562332]),
    ('Adam', {'lr': 0.01},
     [0.4809640944004059, -1.1808674335479736, 0.281469464302063, 1.9907485246658325, -0.685783863067627, 0.08149862289428711]),
    ('Adam', {'lr': 0.01, 'betas': (0.8, 0.9), 'weight_decay': 0.1, 'amsgrad': True, 'maximize': True},
     [0.5169742703437805, -1.2131010293960571, 0.3174324035644531, 2.002732038497925, -0.7109559774398804, 0.11783434450626373]),
    ('AdamW', {'lr': 0.01},
     [0.4808163642883301, -1.1805096864700317, 0.2813817262649536, 1.990150809288025, -0.6855760812759399, 0.08147089183330536]),
    ('AdamW', {'lr': 0.01, 'amsgrad': True, 'weight_decay': 0.1, 'maximize': True},
     [0.5175147652626038, -1.2155137062072754, 0.3176088035106659, 2.003235101699829, -0.7120955586433411, 0.11817903071641922]),
    ('Adadelta', {'lr': 1.0, 'rho': 0.8, 'weight_decay': 0.1, 'maximize': True},
     [0.5033717155456543, -1.2030296325683594, 0.3031299114227295, 1.9965927600860596, -0.6998010873794556, 0.10317660868167877]),
    ('Adagrad', {'lr': 0.1, 'lr_decay': 0.1, 'weight_decay': 0.1, 'initial_accumulator_value': 0.2, 'maximize': True},
     [0.5951199531555176, -1.2627589702606201, 0.40228402614593506, 1.9573462009429932, -0.7324201464653015, 0.2049524039030075]),
    ('Adamax', {'lr': 0.01, 'weight_decay': 0.1, 'maximize': True},
     [0.515535295009613, -1.212256908416748, 0.3166399896144867, 2.0055747032165527, -0.7117074131965637, 0.11695070564746857]),
    ('ASGD', {'lr': 0.01, 'lambd': 0.1, 'alpha': 0.5, 't0': 1.0, 'weight_decay': 0.1, 'maximize': True},
     [0.5082973837852478, -1.2018015384674072, 0.312630295753479, 1.9819953441619873, -0.6995826959609985, 0.11411162465810776]),
    ('NAdam', {'lr': 0.01, 'weight_decay': 0.1, 'momentum_decay': 0.01},
     [0.4831778109073639, -1.1807618141174316, 0.2851994037628174, 1.9974583387374878, -0.6924659609794617, 0.08558078855276108]),
    ('RAdam', {'lr': 0.01, 'betas': (0.9, 0.5), 'weight_decay': 0.1},
     [0.46297693252563477, -1.1638767719268799, 0.25224369764328003, 1.9823765754699707, -0.6713718175888062, 0.052970822900533676]),
    ('RAdam', {'lr': 0.01, 'betas': (0.9, 0.999), 'weight_decay': 0.1},
     [0.4789385199546814, -1.1794359683990479, 0.2718222439289093, 1.9832158088684082, -0.6792815923690796, 0.07216610759496689]),
    ('RMSprop', {'lr': 0.01, 'momentum': 0.9, 'centered': True, 'weight_decay': 0.1},
     [0.2162349820137024, -0.8774781823158264, 0.0391029492020607, 1.8297055959701538, -0.5017073154449463, -0.15548187494277954]),
    ('RMSprop', {'lr': 0.01, 'alpha': 0.9, 'maximize': True},
     [0.5432043671607971, -1.2440125942230225, 0.3395339250564575, 1.9922832250595093, -0.7141639590263367, 0.13933660089969635]),
    ('Rprop', {'lr': 0.01, 'maximize': True},
     [0.5149999856948853, -1.215000033378601, 0.3149999976158142, 2.004999876022339, -0.7049999833106995, 0.11500000208616257]),
    ('Rprop', {'lr': 0.01, 'etas': (0.3, 1.5), 'step_sizes': (0.001, 0.013)},
     [0.4870000183582306, -1.187000036239624, 0.28700003027915955, 1.9930000305175781, -0.6930000185966492, 0.08700000494718552]),
]

# Adam with two groups (the second: lr 0.1, betas (0.5, 0.6), amsgrad; gradient 2 * g[1]), after 3 steps
GROUPS_EXPECTED = ( [0.4809640944004059, -1.1808674335479736, 0.281469464302063, 1.9907485246658325, -0.685783863067627, 0.08149862289428711] ,
     [0.4695833921432495, -1.107012391090393, 0.13433417677879333] )


def run_optimizer(name, kwargs, compiled=False):
    p = ms.Parameter(ms.Tensor(W0), name="w")
    opt = getattr(optim, name)([p], **kwargs)
    step = (lambda g: opt((g,)))
    if compiled:
        step = ms.jit(step)
    for g in gradients() * (3 if name == "RAdam" else 1):
        step(ms.Tensor(g))
    return p.asnumpy()


@pytest.mark.parametrize("name, kwargs, expected", OPT_EXPECTED, ids=[f"{c[0]}-{i}" for i, c in enumerate(OPT_EXPECTED)])
def test_optimizer_matches_torch(name, kwargs, expected):
    np.testing.assert_allclose(run_optimizer(name, kwargs).reshape(-1), expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name, kwargs, expected", OPT_EXPECTED, ids=[f"{c[0]}-{i}" for i, c in enumerate(OPT_EXPECTED)])
def test_optimizer_compiled_matches_torch(name, kwargs, expected):
    # compiled, the step count and lr are read in the graph: the scalars in float64, so still close to torch
    np.testing.assert_allclose(run_optimizer(name, kwargs, compiled=True).reshape(-1), expected, rtol=1e-5,
                               atol=1e-6)


def test_parameter_groups_have_their_own_options():
    p = ms.Parameter(ms.Tensor(W0), name="p")
    q = ms.Parameter(ms.Tensor(W0[0]), name="q")
    opt = optim.Adam([{"params": [p]}, {"params": q, "lr": 0.1, "betas": (0.5, 0.6), "amsgrad": True}], lr=0.01)
    assert opt.group_start_id == [0, 1, 2]
    assert opt.param_groups[1]["betas"] == (0.5, 0.6) and opt.param_groups[0]["betas"] == (0.9, 0.999)
    for g in gradients():
        opt((ms.Tensor(g), ms.Tensor(g[1] * 2)))
    np.testing.assert_allclose(p.asnumpy().reshape(-1), GROUPS_EXPECTED[0], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(q.asnumpy().reshape(-1), GROUPS_EXPECTED[1], rtol=1e-6, atol=1e-6)


def test_state_parameters_have_mindsporess_names_and_follow_add_param_group():
    p = ms.Parameter(ms.Tensor(W0), name="p")
    opt = optim.Adam([p], lr=0.01)
    names = {name for name, _ in opt.parameters_and_names()}
    assert {"exp_avg.p", "exp_avg_sq.p", "max_exp_avg_sq.p", "state_step", "learning_rate_group_0"} <= names
    assert opt.state[p]["exp_avg"] is opt.exp_avg[0]
    q = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="q")
    opt.add_param_group({"params": [q], "lr": 0.5})
    assert len(opt.exp_avg) == 2 and opt.exp_avg[1].shape == (2,) and opt.lrs[1].name == "learning_rate_group_1"
    assert float(opt.param_groups[1]["lr"].asnumpy()) == 0.5
    opt((ms.Tensor(np.zeros_like(W0)), ms.Tensor(np.ones(2, np.float32))))
    np.testing.assert_allclose(q.asnumpy(), 1 - 0.5, rtol=1e-5)  # Adam's first step is lr * sign(g)
    assert "Parameter Group 1" in repr(opt) and "lr: 0.5" in repr(opt)


def test_checkpoint_resumes_the_optimizer_and_its_rate(tmp_path):
    def make():
        p = ms.Parameter(ms.Tensor(W0), name="p")
        return p, optim.Adam([p], lr=0.1)

    p, opt = make()
    scheduler = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    for g in gradients()[:2]:
        opt((ms.Tensor(g),))
        scheduler.step()
    ms.save_checkpoint(opt, str(tmp_path / "opt.ckpt"))
    p2, opt2 = make()
    ms.load_param_into_net(opt2, ms.load_checkpoint(str(tmp_path / "opt.ckpt")))
    assert float(opt2.param_groups[0]["lr"].asnumpy()) == pytest.approx(0.025)
    g = ms.Tensor(gradients()[2])
    opt((g,))
    opt2((g,))
    np.testing.assert_array_equal(p2.asnumpy(), p.asnumpy())


def test_custom_optimizer_as_mindsporess_example():
    class MySGD(optim.Optimizer):
        def __init__(self, params, lr):
            super().__init__(params, dict(lr=lr))

        def construct(self, gradients):
            for group_id, group in enumerate(self.param_groups):
                start = self.group_start_id[group_id]
                for i, param in enumerate(group["params"]):
                    ops.assign(param, param - gradients[start + i] * group["lr"])
            return True

    p = ms.Parameter(ms.Tensor(W0), name="p")
    opt = MySGD([p], 0.5)
    opt.add_param_group({"params": ms.Parameter(ms.Tensor([0.01, 0.02]), name="b")})
    opt((ms.Tensor(np.ones_like(W0)), ms.Tensor([1.0, 1.0])))
    np.testing.assert_allclose(p.asnumpy(), W0 - 0.5, rtol=1e-6)


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2, weight_init=ms.Tensor(W0), bias_init="zeros")

    def construct(self, x):
        return self.dense(x)


def _train(optimizer_cls, compiled, scheduler_cls=None, steps=4, **kwargs):
    """Trains _Net a few steps (eagerly or with a compiled step), a scheduler stepping between them;
    returns the weights and the losses."""
    net = _Net()
    opt = optimizer_cls(net.trainable_params(), **kwargs)
    scheduler = scheduler_cls(opt) if scheduler_cls else None
    x = ms.Tensor(np.array([[1.0, -2.0, 0.5], [0.3, 0.8, -1.0]], np.float32))
    y = ms.Tensor(np.array([[0.5, -0.5], [1.0, 0.0]], np.float32))

    def forward(x, y):
        return ((net(x) - y) ** 2).mean()

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    step = ms.jit(train_step) if compiled else train_step
    losses = []
    for _ in range(steps):
        losses.append(float(step(x, y).asnumpy()))
        if scheduler is not None:
            scheduler.step()
    return net.dense.weight.asnumpy(), losses


@pytest.mark.parametrize("optimizer_cls, kwargs", [
    (optim.SGD, dict(lr=0.1, momentum=0.9)), (optim.Adam, dict(lr=0.05)), (optim.AdamW, dict(lr=0.05, amsgrad=True)),
    (optim.Adadelta, {}), (optim.Adagrad, dict(lr_decay=0.1)), (optim.Adamax, {}), (optim.ASGD, dict(t0=1.0)),
    (optim.NAdam, {}), (optim.RAdam, {}), (optim.RMSprop, dict(centered=True, momentum=0.5)), (optim.Rprop, {}),
], ids=lambda v: v.__name__ if isinstance(v, type) else "")
def test_compiled_training_step_matches_eager(optimizer_cls, kwargs):
    # the step-decayed lr reaches the compiled step as an input: no recompilation, the same updates
    schedule = lambda opt: lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    eager_w, eager_losses = _train(optimizer_cls, False, schedule, **kwargs)
    graph_w, graph_losses = _train(optimizer_cls, True, schedule, **kwargs)
    np.testing.assert_allclose(graph_losses, eager_losses, rtol=1e-5)
    np.testing.assert_allclose(graph_w, eager_w, rtol=1e-5, atol=1e-6)
    assert eager_losses[-1] < eager_losses[0]


def test_lr_scheduler_changes_the_compiled_steps_rate():
    w_scheduled, _ = _train(optim.SGD, True, lambda opt: lr_scheduler.ConstantLR(opt, factor=0.0, total_iters=1),
                            steps=2, lr=0.1)
    # ConstantLR with factor 0: the first step has lr 0, the second 0.1: one plain SGD step from W0
    w_one_step, _ = _train(optim.SGD, False, steps=1, lr=0.1)
    np.testing.assert_allclose(w_scheduled, w_one_step, rtol=1e-6)


# (scheduler, options, get_last_lr() at construction and after each of 10 steps, for two groups with lr 0.1 and
# 0.05) from torch.optim.lr_scheduler (CyclicLR with cycle_momentum=False: MindSpore's has no momentum cycling)
SCHEDULER_EXPECTED = [
    ('StepLR', {'step_size': 3, 'gamma': 0.5},
     [[0.1, 0.05], [0.1, 0.05], [0.1, 0.05], [0.05, 0.025], [0.05, 0.025], [0.05, 0.025], [0.025, 0.0125], [0.025, 0.0125], [0.025, 0.0125], [0.0125, 0.00625], [0.0125, 0.00625]]),
    ('MultiStepLR', {'milestones': [2, 5, 5], 'gamma': 0.1},
     [[0.1, 0.05], [0.1, 0.05], [0.01, 0.005], [0.01, 0.005], [0.01, 0.005], [0.0001, 5e-05], [0.0001, 5e-05], [0.0001, 5e-05], [0.0001, 5e-05], [0.0001, 5e-05], [0.0001, 5e-05]]),
    ('ConstantLR', {'factor': 0.5, 'total_iters': 3},
     [[0.05, 0.025], [0.05, 0.025], [0.05, 0.025], [0.1, 0.05], [0.1, 0.05], [0.1, 0.05], [0.1, 0.05], [0.1, 0.05], [0.1, 0.05], [0.1, 0.05], [0.1, 0.05]]),
    ('LinearLR', {'start_factor': 0.25, 'end_factor': 0.9, 'total_iters': 4},
     [[0.025, 0.0125], [0.04125, 0.020625], [0.0575, 0.02875], [0.07375, 0.036875], [0.09, 0.045], [0.09, 0.045], [0.09, 0.045], [0.09, 0.045], [0.09, 0.045], [0.09, 0.045], [0.09, 0.045]]),
    ('ExponentialLR', {'gamma': 0.7},
     [[0.1, 0.05], [0.07, 0.035], [0.049, 0.0245], [0.0343, 0.01715], [0.02401, 0.012005], [0.016807, 0.0084035], [0.0117649, 0.00588245], [0.00823543, 0.004117715], [0.005764801, 0.0028824005], [0.0040353607, 0.00201768035], [0.00282475249, 0.001412376245]]),
    ('PolynomialLR', {'total_iters': 6, 'power': 2.0},
     [[0.1, 0.05], [0.069444444444, 0.034722222222], [0.044444444444, 0.022222222222], [0.025, 0.0125], [0.011111111111, 0.005555555556], [0.002777777778, 0.001388888889], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]),
    ('CosineAnnealingLR', {'T_max': 4, 'eta_min': 0.01},
     [[0.1, 0.05], [0.086819805153, 0.044142135624], [0.055, 0.03], [0.023180194847, 0.015857864376], [0.01, 0.01], [0.023180194847, 0.015857864376], [0.055, 0.03], [0.086819805153, 0.044142135624], [0.1, 0.05], [0.086819805153, 0.044142135624], [0.055, 0.03]]),
    ('CosineAnnealingWarmRestarts', {'T_0': 3, 'T_mult': 2, 'eta_min': 0.001},
     [[0.1, 0.05], [0.07525, 0.03775], [0.02575, 0.01325], [0.1, 0.05], [0.093368257487, 0.046717622393], [0.07525, 0.03775], [0.0505, 0.0255], [0.02575, 0.01325], [0.007631742513, 0.004282377607], [0.1, 0.05], [0.098313328401, 0.049165182744]]),
    ('CyclicLR', {'base_lr': 0.01, 'max_lr': 0.1, 'step_size_up': 3, 'step_size_down': 2},
     [[0.01, 0.01], [0.04, 0.04], [0.07, 0.07], [0.1, 0.1], [0.055, 0.055], [0.01, 0.01], [0.04, 0.04], [0.07, 0.07], [0.1, 0.1], [0.055, 0.055], [0.01, 0.01]]),
    ('CyclicLR', {'base_lr': [0.01, 0.02], 'max_lr': 0.1, 'step_size_up': 2, 'mode': 'triangular2'},
     [[0.01, 0.02], [0.055, 0.06], [0.1, 0.1], [0.055, 0.06], [0.01, 0.02], [0.0325, 0.04], [0.055, 0.06], [0.0325, 0.04], [0.01, 0.02], [0.02125, 0.03], [0.0325, 0.04]]),
    ('CyclicLR', {'base_lr': 0.01, 'max_lr': 0.1, 'step_size_up': 2, 'mode': 'exp_range', 'gamma': 0.9},
     [[0.01, 0.01], [0.0505, 0.0505], [0.0829, 0.0829], [0.042805, 0.042805], [0.01, 0.01], [0.03657205, 0.03657205], [0.05782969, 0.05782969], [0.0315233605, 0.0315233605], [0.01, 0.01], [0.027433922005, 0.027433922005], [0.041381059609, 0.041381059609]]),
]


def sgd_with_two_groups():
    p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="p")
    q = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="q")
    return optim.SGD([{"params": [p]}, {"params": [q], "lr": 0.05}], lr=0.1, momentum=0.9)


def last_lrs(scheduler):
    lrs = scheduler.get_last_lr()
    assert all(isinstance(lr, ms.Tensor) and lr.shape == () and lr.dtype == ms.float32 for lr in lrs)
    return [float(lr.asnumpy()) for lr in lrs]


@pytest.mark.parametrize("name, kwargs, expected", SCHEDULER_EXPECTED,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(SCHEDULER_EXPECTED)])
def test_scheduler_matches_torch(name, kwargs, expected):
    opt = sgd_with_two_groups()
    scheduler = getattr(lr_scheduler, name)(opt, **kwargs)
    got = [last_lrs(scheduler)]
    for _ in range(10):
        scheduler.step()
        got.append(last_lrs(scheduler))
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-9)
    # the groups' lr Parameters hold the rates the optimizer reads
    assert float(opt.param_groups[1]["lr"].asnumpy()) == pytest.approx(expected[-1][1], rel=1e-6)


def lr_sequence(make_scheduler, steps, lr=0.1, metrics=None):
    p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="p")
    opt = optim.SGD([p], lr=lr)
    scheduler = make_scheduler(opt)
    if metrics is not None:
        out = []
        for m in metrics:
            scheduler.step(m)
            out.append(last_lrs(scheduler)[0])
        return out
    out = [last_lrs(scheduler)[0]]
    for _ in range(steps):
        scheduler.step()
        out.append(last_lrs(scheduler)[0])
    return out


def test_lambda_and_multiplicative_lr_match_torch():
    got = lr_sequence(lambda opt: lr_scheduler.LambdaLR(opt, lambda e: 1.0 / (e + 1)), 6)
    np.testing.assert_allclose(got, [0.1, 0.05, 0.033333333333, 0.025, 0.02, 0.016666666667, 0.014285714286],
                               rtol=1e-6)
    got = lr_sequence(lambda opt: lr_scheduler.MultiplicativeLR(opt, [lambda e: 0.9 if e % 2 else 0.8]), 6)
    np.testing.assert_allclose(got, [0.1, 0.09, 0.072, 0.0648, 0.05184, 0.046656, 0.0373248], rtol=1e-6)


def test_sequential_lr_matches_torch():
    def make(opt):
        first = lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2)
        then = lr_scheduler.ExponentialLR(opt, gamma=0.9)
        return lr_scheduler.SequentialLR(opt, schedulers=[first, then], milestones=[3])
    np.testing.assert_allclose(lr_sequence(make, 7), [0.01, 0.01, 0.1, 0.1, 0.09, 0.081, 0.0729, 0.06561], rtol=1e-6)


def test_reduce_lr_on_plateau_matches_torch():
    metrics = [1.0, 0.9, 0.95, 0.95, 0.95, 0.8, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85]
    got = lr_sequence(lambda opt: lr_scheduler.ReduceLROnPlateau(opt, patience=1, cooldown=1, min_lr=0.002,
                                                                 factor=0.3), 0, metrics=metrics)
    np.testing.assert_allclose(got, [0.1, 0.1, 0.1, 0.03, 0.03, 0.03, 0.03, 0.009, 0.009, 0.009, 0.0027, 0.0027],
                               rtol=1e-6)
    got = lr_sequence(lambda opt: lr_scheduler.ReduceLROnPlateau(opt, mode="max", threshold_mode="abs", threshold=0.1,
                                                                 patience=0, factor=0.5), 0,
                      metrics=[1.0, 1.05, 1.2, 1.25, 1.4, ms.Tensor(1.3)])
    np.testing.assert_allclose(got, [0.1, 0.05, 0.05, 0.025, 0.025, 0.0125], rtol=1e-6)


def test_step_with_an_epoch_uses_the_closed_form():
    opt = sgd_with_two_groups()
    scheduler = lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.1)
    scheduler.step(3)
    np.testing.assert_allclose(last_lrs(scheduler), [0.01, 0.005], rtol=1e-6)
    assert scheduler.last_epoch == 3
    warm = lr_scheduler.CosineAnnealingWarmRestarts(sgd_with_two_groups(), T_0=2, T_mult=2)
    warm.step(2.5)  # T_i = 4, T_cur = 0.5
    np.testing.assert_allclose(last_lrs(warm)[0], 0.05 * (1 + np.cos(np.pi * 0.5 / 4)), rtol=1e-6)


def test_custom_scheduler_as_mindsporess_example():
    class HalfThenRestore(lr_scheduler.LRScheduler):
        def __init__(self, optimizer, factor=0.5, total_iters=3, last_epoch=-1):
            self.factor = factor
            self.total_iters = total_iters
            super().__init__(optimizer, last_epoch)

        def get_lr(self):  # MindSpore's example: Tensor arithmetic on the lr Parameters
            if self.last_epoch == 0:
                return [lr * self.factor for lr in self._last_lr]
            if self.last_epoch != self.total_iters:
                return [lr * 1. for lr in self._last_lr]
            return [lr / self.factor for lr in self._last_lr]

    got = lr_sequence(lambda opt: HalfThenRestore(opt), 4, lr=0.01)
    np.testing.assert_allclose(got, [0.005, 0.005, 0.005, 0.01, 0.01], rtol=1e-6)


def test_scheduler_step_inside_a_compiled_function_is_refused():
    p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="p")
    opt = optim.SGD([p], lr=0.1)
    scheduler = lr_scheduler.ExponentialLR(opt, gamma=0.5)

    @ms.jit
    def step(x):
        scheduler.step()
        return x + 1

    with pytest.raises(RuntimeError, match=r"ExponentialLR: scheduler.step\(\) runs eagerly"):
        step(ms.Tensor(1.0))


def _param():
    return ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="p")


@pytest.mark.parametrize("make, error, match", [
    (lambda: optim.SGD([], lr=0.1), ValueError, "'params' must not be empty"),
    (lambda: optim.SGD(None, lr=0.1), ValueError, "'params' must not be None"),
    (lambda: optim.SGD({_param()}, lr=0.1), TypeError, "ordered collection"),
    (lambda: optim.SGD([ms.Tensor([1.0])], lr=0.1), TypeError, "optimize Parameters"),
    (lambda: optim.SGD([_param()], lr="0.1"), TypeError, "'lr' must be an int, float or Tensor"),
    (lambda: optim.SGD([_param()], lr=-0.1), ValueError, "'lr' must be >= 0"),
    (lambda: optim.SGD([_param()], lr=ms.Tensor([0.1, 0.2])), ValueError, "must be a scalar"),
    (lambda: optim.SGD([_param()], lr=0.1, momentum=-1), ValueError, "'momentum' must be >= 0"),
    (lambda: optim.SGD([_param()], lr=0.1, nesterov=True), ValueError, "nesterov=True needs momentum > 0"),
    (lambda: optim.SGD([_param()], lr=0.1, weight_decay=-1.0), ValueError, "'weight_decay' must be >= 0"),
    (lambda: optim.SGD([_param()], lr=0.1, maximize=1), TypeError, "'maximize' must be a bool"),
    (lambda: optim.Adam([_param()], betas=(0.9, 1.0)), ValueError, r"'betas\[1\]' must be >= 0.0 and < 1.0"),
    (lambda: optim.Adam([_param()], betas=0.9), TypeError, "'betas' must be a tuple of 2 numbers"),
    (lambda: optim.AdamW([_param()], eps=-1e-8), ValueError, "'eps' must be >= 0"),
    (lambda: optim.Adadelta([_param()], rho=1.5), ValueError, "'rho' must be >= 0.0 and <= 1.0"),
    (lambda: optim.Adagrad([_param()], lr_decay=-0.1), ValueError, "'lr_decay' must be >= 0"),
    (lambda: optim.ASGD([_param()], lambd=1), TypeError, "'lambd' must be a float"),
    (lambda: optim.NAdam([_param()], momentum_decay=-1.0), ValueError, "'momentum_decay' must be >= 0"),
    (lambda: optim.RAdam([_param()], lr=0.0), ValueError, "'lr' must be > 0"),
    (lambda: optim.RMSprop([_param()], eps=0.0), ValueError, "'eps' must be > 0"),
    (lambda: optim.Rprop([_param()], etas=(0.5, 1.0)), ValueError, r"'etas\[1\]' must be > 1.0"),
    (lambda: optim.Rprop([_param()], step_sizes=(1.0, 0.1)), ValueError, "min <= max"),
    (lambda: optim.Adam([{"lr": 0.1}]), ValueError, "must have a 'params' entry"),
])
def test_bad_optimizer_arguments(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_bad_optimizer_calls():
    p = _param()
    opt = optim.Adam([p])
    with pytest.raises(ValueError, match="got 2 gradients for 1 parameters"):
        opt((ms.Tensor(np.zeros(2, np.float32)),) * 2)
    with pytest.raises(ValueError, match=r"the gradient of p has shape \(3,\), expected \(2,\)"):
        opt((ms.Tensor(np.zeros(3, np.float32)),))
    with pytest.raises(ValueError, match="more than one parameter group"):
        opt.add_param_group({"params": [p]})


@pytest.mark.parametrize("make, error, match", [
    (lambda opt: lr_scheduler.StepLR(nn.Dense(2, 2), 2), TypeError, "'optimizer' must be a"),
    (lambda opt: lr_scheduler.StepLR(opt, 2.0), TypeError, "'step_size' must be an int"),
    (lambda opt: lr_scheduler.StepLR(opt, 2, gamma=1), TypeError, "'gamma' must be a float"),
    (lambda opt: lr_scheduler.StepLR(opt, 2, last_epoch=-2), ValueError, "'last_epoch' must be >= -1"),
    (lambda opt: lr_scheduler.StepLR(opt, 2, last_epoch=3), KeyError, "initial_lr"),
    (lambda opt: lr_scheduler.MultiStepLR(opt, (2, 3)), TypeError, "'milestones' must be a list"),
    (lambda opt: lr_scheduler.ConstantLR(opt, factor=1.5), ValueError, r"'factor' must be in \[0.0, 1.0\]"),
    (lambda opt: lr_scheduler.LinearLR(opt, start_factor=0.0), ValueError, "'start_factor' must be in"),
    (lambda opt: lr_scheduler.PolynomialLR(opt, power=-1.0), ValueError, "'power' must be in"),
    (lambda opt: lr_scheduler.LambdaLR(opt, [lambda e: 1.0] * 2), ValueError, "expected 1 values for 'lr_lambda'"),
    (lambda opt: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0), ValueError, "'T_0' must be an int >= 1"),
    (lambda opt: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0), ValueError, "'T_mult'"),
    (lambda opt: lr_scheduler.CyclicLR(opt, 0.01, 0.1, mode="cosine"), ValueError, "'mode' must be"),
    (lambda opt: lr_scheduler.ReduceLROnPlateau(opt, factor=1.0), ValueError, "'factor' must be in"),
    (lambda opt: lr_scheduler.ReduceLROnPlateau(opt, mode="mean"), ValueError, "'mode' must be 'min' or 'max'"),
    (lambda opt: lr_scheduler.ReduceLROnPlateau(opt, threshold_mode="x"), ValueError, "'threshold_mode'"),
    (lambda opt: lr_scheduler.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2]), ValueError, "expected 1 values for 'min_lr'"),
    (lambda opt: lr_scheduler.SequentialLR(opt, [lr_scheduler.StepLR(opt, 2)], [1]), ValueError, "expected 0 milestones"),
    (lambda opt: lr_scheduler.SequentialLR(opt, [lr_scheduler.StepLR(optim.SGD([_param()], lr=0.1), 2)], []),
     ValueError, "belong to the optimizer"),
])
def test_bad_scheduler_arguments(make, error, match):
    opt = optim.SGD([_param()], lr=0.1)
    with pytest.raises(error, match=match):
        make(opt)
