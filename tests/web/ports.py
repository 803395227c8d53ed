"""The port a server started by a test listens on: deploy/cluster.py's ``free_port``, which
chooses below the kernel's ephemeral range (why is there), imported by the script's path as
tests/deploy/nodes.py does."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def _cluster_module():
    name = "codeblanks_deploy_cluster"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[2] / "deploy" / "cluster.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses and pickling look modules up by name
        spec.loader.exec_module(module)
    return sys.modules[name]


free_port = _cluster_module().free_port
