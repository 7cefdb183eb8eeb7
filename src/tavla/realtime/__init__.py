"""Live events between parts of the server: a publish/subscribe hub.

In one process the hub is in memory; when several processes serve one site, a hub
on Redis carries the same messages between them.
"""
