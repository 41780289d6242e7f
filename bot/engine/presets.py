"""Placeholder, replaced by the engine's preset table."""

PRESET_NAMES: tuple[str, ...] = ("mexican", "dollar", "mexen", "mexicanen", "mexico")
