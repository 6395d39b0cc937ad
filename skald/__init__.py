"""Skald's composition root: settings, the CLI, store and transcoder set-up, embedded Redis.

It imports the other packages and is imported by none of them.
"""
