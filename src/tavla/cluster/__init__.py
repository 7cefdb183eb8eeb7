"""Several ``tavla serve`` processes behind nginx on one machine (``tavla cluster``,
docs/deploy.md), and the pieces a fault test stops, freezes and restarts one by one."""

from tavla.cluster.cluster import Cluster, ClusterOptions
from tavla.cluster.process import Component, ComponentError
from tavla.cluster.servers import Nginx, TavlaServer
from tavla.cluster.stores import Postgres, Redis

__all__ = [
    "Cluster",
    "ClusterOptions",
    "Component",
    "ComponentError",
    "Nginx",
    "Postgres",
    "Redis",
    "TavlaServer",
]
