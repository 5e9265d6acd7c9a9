"""xz inputs of the benchmarks, decompressed once into target/bench."""
import lzma
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "target", "bench")


def plain(path):
    """The file at `path`, decompressed into target/bench (as
    `<folder>_<name>`) when it is xz; kept there for the next run."""
    if not path.endswith(".xz"):
        return path
    os.makedirs(OUT, exist_ok=True)
    parent = os.path.basename(os.path.dirname(os.path.abspath(path)))
    out = os.path.join(OUT, f"{parent}_{os.path.basename(path)[:-3]}")
    if not os.path.exists(out):
        with lzma.open(path) as src, open(out + ".part", "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.replace(out + ".part", out)
    return out
