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
        if code.co_name == "<lambda>":  # found in the whole file: a lambda may sit inside any expression
            self.node = _find_lambda(_module_tree(self.file), code)
            return
        try:
            lines, first_line = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise GraphSyntaxError(f"graph mode: cannot read the source of {fn.__qualname__} ({e}); graph mode "
                                   f"compiles Python source, so define the function in a file") from None
        source = "".join(lines)
        dedented = textwrap.dedent(source)
        tree = ast.parse(dedented)
        ast.increment_lineno(tree, first_line - 1)
        indent = len(source) - len(source.lstrip()) - (len(dedented) - len(dedented.lstrip()))
        if indent:  # keep the columns of the file, which code objects record
            for n in ast.walk(tree):
                if hasattr(n, "col_offset"):
                    n.col_offset += indent
        node = tree.body[0]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.node = node
        else:
            self.node = _find_lambda(tree, code)


@functools.lru_cache(maxsize=64)
def _module_tree(file):
    import linecache
    lines = linecache.getlines(file)
    if not lines:
        raise GraphSyntaxError(f"graph mode: cannot read {file}; graph mode compiles Python source, so define the "
                               f"function in a file")
    return ast.parse("".join(lines))


def _find_lambda(tree, code):
    """The Lambda node `code` was compiled from. Several lambdas may share a line: the one whose
    parameters match and whose body covers the source positions the code object records wins."""
    names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    candidates = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and n.lineno == code.co_firstlineno
                  and [a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs] == names]
    if not candidates:
        candidates = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)]
    if len(candidates) == 1:
        return candidates[0]
    positions = {(line, col) for line, _, col, _ in code.co_positions() if line is not None}

    def overlap(lam):
        return len(positions & {(n.lineno, n.col_offset) for n in ast.walk(lam.body) if hasattr(n, "col_offset")})

    return max(candidates, key=overlap)


@functools.lru_cache(maxsize=1024)
def _source_of_code(fn_code, fn):
    return FunctionSource(fn)


def function_source(fn):
    return _source_of_code(fn.__code__, fn)


def where(file, node):
    return f"{file}:{getattr(node, 'lineno', '?')}"


def unsupported(file, node, construct, instead):
    raise GraphSyntaxError(f"{where(file, node)}: graph mode does not support {construct}; {instead}")
