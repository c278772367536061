"""Business flows (writes) for events; each module holds one area, named ``<entity>_<action>``."""
