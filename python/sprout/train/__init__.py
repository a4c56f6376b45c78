"""Training utilities (``mindspore.train``): checkpoints now; Model, callbacks and metrics next."""
from sprout.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]
