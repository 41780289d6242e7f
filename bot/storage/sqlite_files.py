"""The SQLite file under the running bot: whether its three files are still the ones it
opened and can be written, and a complete copy of the database saved from the open
connection when the file was deleted or moved away (docs/operations.md, While the
database is down).

Why the check runs before every reach of the database: SQLite keeps the WAL index in
``-shm`` through a memory map, and both writes and reads store into it (a reader notes
its place there). A store into a mapped page of a file that can't be written (immutable,
or on a file system remounted read-only) is a bus error that ends the process, not an
error code. So the bot looks first, with one ``access()`` call per file (a few µs), and
refuses as for an outage; the docs say what was measured and what was weighed.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import sqlite3
import time
from pathlib import Path

#: The database file and its two sidecars, which live as long as a WAL connection.
SIDECARS = ("", "-wal", "-shm")
#: Linux's ioctl reading a file's attributes, and the immutable one (chattr +i).
FS_IOC_GETFLAGS = 0x80086601
FS_IMMUTABLE_FL = 0x10

Identities = dict[Path, tuple[int, int]]


def files_of(path: Path) -> tuple[Path, ...]:
    return tuple(Path(f"{path}{suffix}") for suffix in SIDECARS)


def identities(path: Path) -> Identities:
    """(device, inode) of the database file and of its sidecars as they are now."""
    found = {}
    for file in files_of(path):
        with contextlib.suppress(OSError):
            stat = os.stat(file)
            found[file] = (stat.st_dev, stat.st_ino)
    return found


def gone(files: Identities) -> Path | None:
    """The first of ``files`` no longer at its path (deleted, moved or replaced)."""
    for file, known in files.items():
        try:
            stat = os.stat(file)
        except FileNotFoundError:
            return file
        except OSError:
            continue  # can't look: the write itself will tell
        if (stat.st_dev, stat.st_ino) != known:
            return file
    return None


def gone_files(files: Identities) -> set[Path]:
    """Every one of ``files`` no longer at its path."""
    return {file for file in files if gone({file: files[file]}) is not None}


def unwritable(files: Identities) -> Path | None:
    """The first of ``files`` this process may not write now: a read-only file system,
    an immutable file, or one whose permissions say no. One ``access()`` call each."""
    for file in files:
        if not os.access(file, os.W_OK) and os.path.lexists(file):
            return file
    return None


def why_unwritable(file: Path) -> str:
    """What keeps ``file`` from being written, in plain words (looked up only once it
    can't be)."""
    try:
        if os.statvfs(file.parent).f_flag & os.ST_RDONLY:
            return "as its file system is mounted read-only"
    except OSError:
        pass
    with contextlib.suppress(OSError), open(file, "rb") as handle:
        flags = ctypes.c_long(0)
        fcntl.ioctl(handle.fileno(), FS_IOC_GETFLAGS, flags)
        if flags.value & FS_IMMUTABLE_FL:
            return "as it is immutable (chattr +i)"
    return "as it is read-only for the user the bot runs as"


def saved_name(path: Path, clock: float | None = None) -> Path:
    """Where a copy goes when another file stands at the database's path."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(clock))
    return path.with_name(f"{path.name}.recovered-{stamp}")


def save_copy(db: sqlite3.Connection, path: Path, known: Identities) -> Path | None:
    """Write a complete, consistent copy of ``db`` (SQLite's backup API: one read
    snapshot, the WAL's pages included) to ``path`` if nothing stands there, else beside
    it; the copy's path if it went beside, None if it went to ``path``.

    The copy is written to a file of its own first and then linked into place, so
    another file that appears at ``path`` meanwhile is never overwritten. When the file
    itself went, the bot's own ``-wal`` and ``-shm`` still at their paths (``known``) are
    removed first: the copy holds all they did, and SQLite would lay their pages over
    whatever file opens at ``path`` next. Runs on the connection's worker thread."""
    spare = path.with_name(f".{path.name}.saving-{os.getpid()}")
    with contextlib.suppress(FileNotFoundError):
        spare.unlink()
    target = sqlite3.connect(spare)
    try:
        db.backup(target)
        target.execute("PRAGMA journal_mode = DELETE")  # one file, no sidecar to keep
    finally:
        target.close()
    for sidecar in files_of(spare)[1:]:
        with contextlib.suppress(FileNotFoundError):
            sidecar.unlink()
    went = gone_files(known)
    for sidecar in files_of(path)[1:]:
        if path in went and sidecar in known and sidecar not in went:
            with contextlib.suppress(FileNotFoundError):
                sidecar.unlink()
    try:
        os.link(spare, path)
    except FileExistsError:
        beside = saved_name(path)
        os.replace(spare, beside)
        return beside
    spare.unlink()
    return None


def abandon(db: sqlite3.Connection) -> None:
    """Keep ``db`` open for the life of the process: SQLite's close would checkpoint
    into files that can't take it (a bus error), or delete the ``-wal`` and ``-shm`` at
    the path by name, which belong to another file now. The system closes it at exit."""
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(db))
