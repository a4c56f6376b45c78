"""Training callbacks (``mindspore.train`` callbacks)."""
from sprout.train.callback.callback import Callback, CallbackList, RunContext
from sprout.train.callback.checkpoint import CheckpointConfig, ModelCheckpoint
from sprout.train.callback.early_stopping import EarlyStopping, ReduceLROnPlateau
from sprout.train.callback.monitors import History, LambdaCallback, LossMonitor, ProgressBar, TimeMonitor
from sprout.train.callback.lr_scheduler import LearningRateScheduler

__all__ = ["Callback", "CallbackList", "RunContext", "CheckpointConfig", "ModelCheckpoint", "EarlyStopping",
           "ReduceLROnPlateau", "History", "LambdaCallback", "LossMonitor", "ProgressBar", "TimeMonitor",
           "LearningRateScheduler"]
