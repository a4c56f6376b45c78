"""Reading a Python function's source for staging: its AST, file and line numbers."""
import ast
import functools
import inspect
import textwrap


class GraphSyntaxError(RuntimeError):
    """A construct graph mode does not support, reported with its file, line and what to write instead."""


class FunctionSource:
    def __init__(self, fn):
        code = fn.__code__
        self.file = code.co_filename
        self.name = fn.__name__
        try:
            lines, first_line = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise GraphSyntaxError(f"graph mode: cannot read the source of {fn.__qualname__} ({e}); graph mode "
                                   f"compiles Python source, so define the function in a file") from None
        tree = ast.parse(textwrap.dedent("".join(lines)))
        ast.increment_lineno(tree, first_line - 1)
        node = tree.body[0]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.node = node
        else:  # a lambda: the first Lambda on its line
            self.node = next(n for n in ast.walk(tree) if isinstance(n, ast.Lambda))


@functools.lru_cache(maxsize=1024)
def _source_of_code(fn_code, fn):
    return FunctionSource(fn)


def function_source(fn):
    return _source_of_code(fn.__code__, fn)


def where(file, node):
    return f"{file}:{getattr(node, 'lineno', '?')}"


def unsupported(file, node, construct, instead):
    raise GraphSyntaxError(f"{where(file, node)}: graph mode does not support {construct}; {instead}")
