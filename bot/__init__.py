"""The Mexican dice bot: engine, storage and start-up."""

from importlib.metadata import PackageNotFoundError, version

try:
    #: The installed version (pyproject.toml), shown by --version, /health and the web
    #: pages so a report names what ran (CHANGELOG.md).
    __version__ = version("mexican-bot")
except PackageNotFoundError:  # run from a checkout that was never installed
    __version__ = "0+unknown"
