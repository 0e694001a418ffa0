"""The inputs of a Dask run: local paths or URLs (fsspec), their sizes, and reading them from a worker.
"""

from __future__ import annotations

import os
import re
import tempfile

from ...grammar.chunk import SourceError
from ...grammar.sources import PHH_SUFFIXES, is_phh_path

OBJECT_STORES = {"s3", "s3a", "gs", "gcs", "az", "abfs", "abfss", "adl", "oss", "r2", "memory"}


_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def is_url(path: str) -> bool:
    """A path with a scheme (``s3://...``, ``file://...``): read and written through fsspec."""
    return bool(_URL.match(path))


def url_fs(url: str):
    try:
        import fsspec.core
    except ImportError as err:  # pragma: no cover - fsspec comes with dask
        raise SourceError(f"{url}: reading URLs needs fsspec (pip install 'handaudit[dask]')") from err
    try:
        return fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as err:  # e.g. s3fs not installed, unknown protocol
        raise SourceError(f"{url}: {err}") from None


def suffix_of(path: str) -> str:
    for s in sorted(PHH_SUFFIXES, key=len, reverse=True):
        if path.endswith(s):
            return s
    return ""


def expand_inputs(paths) -> tuple[list[str], dict[str, int | None]]:
    """The files to read, in the local engine's order, and their sizes (None: unknown).

    Local paths go through the local engine's
    :func:`~handaudit.importers.inputs.expand_inputs` (PHH files and site logs); a URL is listed
    through fsspec (a directory is searched recursively, sorted). As on a local disk, an object
    with a PHH name is PHH and any other is read when its first bytes are a site log's (one
    ranged read of :data:`~handaudit.importers.common.SNIFF_BYTES` per such object); the rest
    (READMEs, notes) are passed over. Raises SourceError.
    """
    from ...importers.inputs import expand_inputs as expand_local

    files: list[str] = []
    sizes: dict[str, int | None] = {}
    for p in paths:
        if p == "-" or not is_url(p):
            for f in expand_local([p]):
                files.append(f)
                if f != "-" and f not in sizes:
                    try:
                        sizes[f] = os.path.getsize(f)
                    except OSError:
                        sizes[f] = None
            continue
        fs, root = url_fs(p)
        try:
            if fs.isdir(root):
                found = sorted((info["name"], info.get("size")) for info in fs.find(root, detail=True).values()
                               if info.get("type", "file") == "file")
                found = [(name, size) for name, size in found if is_phh_path(name) or _is_site_object(fs, name)]
                if not found:
                    raise SourceError(f"{p}: no .phh, .phhs, .phh.gz or .phhs.gz file or site log under this URL")
                for name, size in found:
                    url = fs.unstrip_protocol(name)
                    files.append(url)
                    sizes[url] = size
            elif fs.exists(root):
                if not is_phh_path(p) and not _is_site_object(fs, root):
                    raise SourceError(f"{p}: neither a PHH file (.phh, .phhs, .phh.gz or .phhs.gz) nor a site log")
                files.append(p)
                sizes[p] = fs.size(root)
            else:
                raise SourceError(f"{p}: no such file or directory")
        except SourceError:
            raise
        except (OSError, ValueError) as err:
            raise SourceError(f"{p}: {err}") from None
    return files, sizes


def _is_site_object(fs, name: str) -> bool:
    """The object ``name`` holds a site's hand history (its first bytes, as a local file is told)."""
    from ...importers.common import SNIFF_BYTES
    from ...importers.inputs import is_site_head

    try:
        head = fs.cat_file(name, start=0, end=SNIFF_BYTES)
    except (OSError, ValueError):
        return False  # (an object that cannot be read cannot be told a log: passed over, as locally)
    return is_site_head(head)


def local_location(path: str) -> str | None:
    """Workers may run elsewhere (another working directory): they read local files by absolute path."""
    if path == "-" or is_url(path):
        return None
    absolute = os.path.abspath(path)
    return absolute if absolute != path else None


def unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def download(url: str, suffix: str) -> str:
    """Copy a URL's file to a local temporary file (same suffix, so the reader knows its kind)."""
    fs, root = url_fs(url)
    fd, tmp = tempfile.mkstemp(prefix="handaudit-", suffix=suffix)
    os.close(fd)
    try:
        fs.get_file(root, tmp)
    except BaseException as err:
        unlink_quietly(tmp)
        if isinstance(err, (OSError, ValueError)):
            raise SourceError(f"{url}: {err}") from None
        raise
    return tmp


def read_range(path: str, start: int, end: int | None) -> bytes:
    if is_url(path):
        fs, root = url_fs(path)
        return fs.cat_file(root, start=start, end=end)
    with open(path, "rb") as f:
        f.seek(start)
        return f.read() if end is None else f.read(end - start)
