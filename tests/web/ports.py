"""The port a server started by a test listens on: deploy/cluster.py's ``free_port``, which
chooses below the kernel's ephemeral range (why is there). The script is imported by its path
(it is not a package), once, for every test package that needs it (tests/deploy too)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def cluster_module():
    """deploy/cluster.py, the operator's script, as a module."""
    name = "codeblanks_deploy_cluster"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[2] / "deploy" / "cluster.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses and pickling look modules up by name
        spec.loader.exec_module(module)
    return sys.modules[name]


free_port = cluster_module().free_port
