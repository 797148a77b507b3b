"""Garito as a server: shared tables (``tables``) for players connecting
over SSH. The SSH front and the lobby screen build on ``TableServer``."""
