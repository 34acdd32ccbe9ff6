"""One end-to-end test module's helpers, used by another (its servers, its players).

Test modules are not a package (pytest's importlib mode), so a module that builds
on another's helpers loads it by path, once: every user then shares one module
object, and its classes are the same classes in all of them."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def sibling(name: str, path: Path) -> ModuleType:
    """The module at `path`, loaded once under `name`."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
