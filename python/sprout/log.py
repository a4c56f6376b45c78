"""Sprout's logger, configured as MindSpore's is from GLOG_* environment variables, read the first time the
logger is used: GLOG_v (level: 0 DEBUG, 1 INFO, 2 WARNING (default), 3 ERROR, 4 CRITICAL), GLOG_logtostderr (1: to
stderr; 0: to a rotating file sprout.log in GLOG_log_dir, of logger_maxBytes bytes and logger_backupCount
backups, with records at GLOG_stderrthreshold and above also on stderr). ``ms.get_level()`` and
``ms.get_log_config()`` report that configuration."""
import logging
import logging.handlers
import os

_GLOG_TO_LEVEL = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR,
                  "4": logging.CRITICAL}
_LEVEL_TO_GLOG = {level: glog for glog, level in _GLOG_TO_LEVEL.items()}
_DEFAULT_LEVEL = "2"
_DEFAULT_MAX_BYTES = 50 * 1024 * 1024
_DEFAULT_BACKUPS = 30

_logger = None
_config = None


def _env_choice(name, default, choices):
    value = os.environ.get(name, default).strip()
    if value not in choices:
        raise ValueError(f"sprout.log: environment variable {name} must be one of {sorted(choices)}, but got "
                         f"{value!r}")
    return value


def _env_positive_int(name, default):
    value = os.environ.get(name)
    if value is None:
        return default
    if not value.strip().isdigit() or int(value) <= 0:
        raise ValueError(f"sprout.log: environment variable {name} must be a positive integer, but got {value!r}")
    return int(value)


def _configure():
    global _logger, _config
    level = _env_choice("GLOG_v", _DEFAULT_LEVEL, _GLOG_TO_LEVEL)
    to_stderr = _env_choice("GLOG_logtostderr", "1", {"0", "1"})
    logger = logging.getLogger("sprout")
    logger.setLevel(_GLOG_TO_LEVEL[level])
    logger.propagate = False
    formatter = logging.Formatter("[%(levelname)s] SPROUT(%(process)d,%(threadName)s):%(asctime)s "
                                  "[%(filename)s:%(lineno)d] %(message)s")
    config = {"GLOG_v": level, "GLOG_logtostderr": to_stderr}
    if to_stderr == "0":
        log_dir = os.environ.get("GLOG_log_dir")
        if not log_dir:
            raise ValueError("sprout.log: GLOG_logtostderr=0 needs GLOG_log_dir, the directory of the log file")
        max_bytes = _env_positive_int("logger_maxBytes", _DEFAULT_MAX_BYTES)
        backups = _env_positive_int("logger_backupCount", _DEFAULT_BACKUPS)
        threshold = _env_choice("GLOG_stderrthreshold", "2", _GLOG_TO_LEVEL)
        file_handler = logging.handlers.RotatingFileHandler(
            os.path.join(os.path.realpath(log_dir), "sprout.log"), maxBytes=max_bytes, backupCount=backups,
            delay=True)  # the file is made at the first record, not at import
        stderr_handler = logging.StreamHandler()
        stderr_handler.setLevel(_GLOG_TO_LEVEL[threshold])
        handlers = [file_handler, stderr_handler]
        config.update({"GLOG_log_dir": os.path.realpath(log_dir), "logger_maxBytes": max_bytes,
                       "logger_backupCount": backups, "GLOG_stderrthreshold": threshold})
    else:
        handlers = [logging.StreamHandler()]
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    for handler in handlers:
        handler.setFormatter(formatter)
        logger.addHandler(handler)
    _logger, _config = logger, config


def get_logger():
    """The 'sprout' logging.Logger."""
    if _logger is None:
        _configure()
    return _logger


def get_level():
    """The logger's level as GLOG_v spells it: '0' DEBUG ... '4' CRITICAL."""
    return _LEVEL_TO_GLOG.get(get_logger().getEffectiveLevel(), _DEFAULT_LEVEL)


def get_log_config():
    """The logger's configuration: GLOG_v and GLOG_logtostderr, and the file settings when logging to a file."""
    get_logger()
    return {**_config, "GLOG_v": get_level()}


__all__ = ["get_level", "get_log_config", "get_logger"]
