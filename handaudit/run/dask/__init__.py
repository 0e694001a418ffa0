"""The Dask engine (``handaudit check --engine dask``): :mod:`.client` runs it (see its docstring),
:mod:`.planning` cuts the inputs (:mod:`.inputs`) into tasks, :mod:`.worker` runs a task."""
