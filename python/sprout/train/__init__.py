"""Training utilities (``mindspore.train``): Model, callbacks, metrics, checkpoints."""
from sprout.train.callback import *  # noqa: F401,F403
from sprout.train.metrics import *  # noqa: F401,F403
from sprout.train.model import Model
from sprout.train.dataset_helper import DatasetHelper
from sprout.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint
from sprout.train import callback, metrics
