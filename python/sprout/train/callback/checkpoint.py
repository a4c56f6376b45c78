"""ModelCheckpoint and CheckpointConfig: save during training, keep the newest N files."""
import os
import time

from sprout.train.callback.callback import Callback


class CheckpointConfig:
    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False, saved_network=None,
                 append_info=None, enc_key=None, enc_mode="AES-GCM", exception_save=False, crc_check=False,
                 format="ckpt", **kwargs):
        for name, value in (("save_checkpoint_steps", save_checkpoint_steps),
                            ("save_checkpoint_seconds", save_checkpoint_seconds),
                            ("keep_checkpoint_max", keep_checkpoint_max),
                            ("keep_checkpoint_per_n_minutes", keep_checkpoint_per_n_minutes)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise ValueError(f"CheckpointConfig: '{name}' must be an int >= 0, but got {value!r}")
        if not save_checkpoint_steps and not save_checkpoint_seconds:
            raise ValueError("CheckpointConfig: one of 'save_checkpoint_steps' and 'save_checkpoint_seconds' "
                             "must be positive")
        self.save_checkpoint_steps = save_checkpoint_steps
        self.save_checkpoint_seconds = save_checkpoint_seconds
        self.keep_checkpoint_max = keep_checkpoint_max
        self.keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        self.saved_network = saved_network
        self.append_info = append_info or []
        self.crc_check = crc_check
        self.format = format
        for entry in self.append_info:
            if not (entry in ("epoch_num", "step_num") or isinstance(entry, dict)):
                raise ValueError(f"CheckpointConfig: 'append_info' entries must be 'epoch_num', 'step_num' or a dict, "
                                 f"but got {entry!r}")


class ModelCheckpoint(Callback):
    """Saves ``{prefix}-{epoch}_{step}.ckpt`` into `directory` as the config says."""

    def __init__(self, prefix="CKP", directory=None, config=None):
        if not isinstance(prefix, str) or not prefix or "/" in prefix:
            raise ValueError(f"ModelCheckpoint: 'prefix' must be a non-empty file-name prefix, but got {prefix!r}")
        if config is not None and not isinstance(config, CheckpointConfig):
            raise TypeError(f"ModelCheckpoint: 'config' must be a CheckpointConfig, but got {type(config).__name__}")
        self.prefix = prefix
        self.directory = os.path.realpath(directory or ".")
        self.config = config or CheckpointConfig()
        self.saved = []
        self._last_time = time.time()
        self.latest_ckpt_file_name = None

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        cfg = self.config
        due = cfg.save_checkpoint_steps and cb.cur_step_num % cfg.save_checkpoint_steps == 0
        due = due or (cfg.save_checkpoint_seconds and time.time() - self._last_time >= cfg.save_checkpoint_seconds)
        if due:
            self._save(cb)

    def on_train_end(self, run_context):
        cb = run_context.original_args()
        if not self.saved or not self.saved[-1].endswith(f"-{cb.cur_epoch_num}_{self._step_in_epoch(cb)}.ckpt"):
            self._save(cb)

    @staticmethod
    def _step_in_epoch(cb):
        return (cb.cur_step_num - 1) % max(cb.batch_num, 1) + 1

    def _save(self, cb):
        from sprout.train.serialization import save_checkpoint
        os.makedirs(self.directory, exist_ok=True)
        network = self.config.saved_network or cb.train_network
        append = {}
        for entry in self.config.append_info:
            if entry == "epoch_num":
                append["epoch_num"] = cb.cur_epoch_num
            elif entry == "step_num":
                append["step_num"] = cb.cur_step_num
            else:
                append.update(entry)
        name = os.path.join(self.directory, f"{self.prefix}-{cb.cur_epoch_num}_{self._step_in_epoch(cb)}.ckpt")
        save_checkpoint(network, name, append_dict=append or None, crc_check=self.config.crc_check)
        self._last_time = time.time()
        if name in self.saved:
            self.saved.remove(name)
        self.saved.append(name)
        self.latest_ckpt_file_name = name
        keep = self.config.keep_checkpoint_max
        while keep and len(self.saved) > keep:
            old = self.saved.pop(0)
            if os.path.exists(old):
                os.remove(old)
