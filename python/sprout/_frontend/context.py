"""The state of one compilation and the compile-time objects staging passes around (Note [Staging]
in stager.py): closures defined in staged code, blocks, per-signature function graphs."""
from sprout import _C
from sprout._frontend import values as V
from sprout._frontend.graph_tensor import GraphTensor


class StagedClosure:
    """A function defined inside staged code (def or lambda): its AST and the variables it captured."""

    def __init__(self, node, env, stager):
        self.node = node
        self.env = env
        self.file = stager.src.file
        self.globals = stager.globals
        self.name = getattr(node, "name", "lambda")

    def captures_tensors(self):
        return any(V._has_tensor(v) for v in self.env.values())


class Block:
    """Where staging emits now: a graph and the variables bound in it. `done` once it has jumped."""

    def __init__(self, graph, env):
        self.graph = graph
        self.env = env
        self.done = False

    def split(self):
        """Ends this block here and returns a block standing for the path that leaves it (break/continue)."""
        self.done = True
        return Block(self.graph, self.env)


class FunctionGraph:
    """A user function specialized for one signature: its graph and (once known) its result template."""

    def __init__(self, graph, arg_template):
        self.graph = graph
        self.arg_template = arg_template
        self.returns = []  # (block graph, value) of every return staged so far
        self.template = None
        self.assumed = None  # the template recursive calls were compiled with
        self.in_progress = True
        self.tail_calls = []  # jumps between its blocks: their result is the function's result
        self.owner = None     # for a function staged inline: the function its jumps belong to
        self.effectful = False  # it (or what it calls) writes Parameters or draws random numbers


def is_library(fn):
    """Library code runs natively on graph tensors; a library function marked `_sprout_stage` (one that
    calls user code, which may branch on tensors) is staged from source like user code."""
    if getattr(fn, "_sprout_stage", False):
        return False
    module = getattr(fn, "__module__", None) or ""
    return module == "sprout" or module.startswith("sprout.")


class CompileContext:
    """State of one compilation: the module, the entry graph, Parameters read, specialized graphs."""

    def __init__(self, name):
        self.module = _C.ir.Module()
        self.entry = self.module.new_graph(name)
        self.parameters = []          # Parameters read, in the order of their entry-graph parameters
        self._parameter_nodes = {}    # id(Parameter) -> entry graph parameter node
        self.functions = {}           # signature key -> FunctionGraph
        self.graph_count = {}
        self.current_graph = self.entry
        self.function_parent = self.entry  # where new function graphs live (their Parameters' scope)
        self.parameter_override = {}      # id(Parameter) -> node, while staging a function to differentiate

    def graph_name(self, base):
        n = self.graph_count.get(base, 0)
        self.graph_count[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def new_graph(self, base, parent):
        return self.module.new_graph(self.graph_name(base), parent)

    def load_parameter(self, p):
        node = self.parameter_override.get(id(p)) or self._parameter_nodes.get(id(p))
        if node is None:
            node = self.entry.add_parameter(p.name)
            node.set_tensor_abstract(p.dtype, list(p.shape))
            self._parameter_nodes[id(p)] = node
            self.parameters.append(p)
        return GraphTensor(self.current_graph.load(node))

    def set_graph(self, graph):
        self.current_graph = graph
        _C.ir.set_graph(graph)
