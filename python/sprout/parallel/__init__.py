"""``sprout.parallel``: model sharding across the ranks of a job (SEMI_AUTO_PARALLEL, Note [Sharded
primitives] in operator_sharding.py). Data parallelism lives in nn.DistributedGradReducer."""
