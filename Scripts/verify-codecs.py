#!/usr/bin/env python3
"""Our codecs against PyPI's: zstandard, python-snappy and lz4 (and Python's gzip).

    python3 Scripts/verify-codecs.py path/to/flow-bench

Over seeded inputs (empty, one byte, noise, runs, CSV-like text, more than one 128 KiB Zstandard
block, and more than the 8 MiB single-segment frame), `flow-bench codec NAME compress` output
must decompress with the package to the input, and the package's output (at several levels)
must decompress with `flow-bench codec NAME decompress` to the input. Zstandard must also
really compress the text (a ratio printed and checked). The venv of Scripts/verify-sql.sh
(.build/sql-venv) is reused; the three packages are added to it.
"""
import gzip
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import time

import sql_venv



def ensure_venv():
    sql_venv.run_in_venv(__file__, [("zstandard", "import zstandard"), ("python-snappy", "import snappy"),
                                    ("lz4", "import lz4.block")])


def inputs():
    rng = random.Random(41)
    noise = rng.randbytes(300_000)
    words = ["UA", "AA", "B6", "Zürich", "naïve", "", "2013-01-01", "N14228"]
    text = "".join(f"{i},{rng.choice(words)},{rng.randint(-30, 900)},{i % 97}\n" for i in range(60_000)).encode()
    mixed = bytearray()
    while len(mixed) < 400_000:
        kind = rng.randrange(3)
        if kind == 0 and len(mixed) > 8:
            start = rng.randrange(len(mixed))
            mixed += mixed[start:start + rng.randrange(1, 300)]
        elif kind == 1:
            mixed += bytes([rng.randrange(256)]) * rng.randrange(1, 60)
        else:
            mixed += rng.randbytes(rng.randrange(1, 40))
    return {
        "empty": b"", "one byte": b"x", "noise": noise, "a run": b"\x07" * 200_000, "text": text,
        "mixed": bytes(mixed), "text then noise": text[:150_000] + noise + text[:150_000],
        "over 8 MiB": (text * (1 + (9 << 20) // len(text)))[: 9 << 20],
    }


def main():
    ensure_venv()
    import lz4.block
    import snappy
    import zstandard

    bench = sys.argv[1]
    zstd_levels = [zstandard.ZstdCompressor(level=level) for level in (1, 3, 19)]
    theirs = {
        # Level 19 only below 1 MiB: it takes seconds on the 9 MiB input.
        "zstd": (lambda data: [c.compress(data) for c in zstd_levels[:2 if len(data) > 1 << 20 else 3]]
                 + [zstandard.ZstdCompressor(level=3, write_checksum=True).compress(data)],
                 lambda data, size: zstandard.ZstdDecompressor().decompress(data, max_output_size=size)),
        "snappy": (lambda data: [snappy.compress(data)], lambda data, size: snappy.uncompress(data)),
        "lz4": (lambda data: [lz4.block.compress(data, store_size=False), lz4.block.compress(data, mode="high_compression", store_size=False)],
                lambda data, size: lz4.block.decompress(data, uncompressed_size=size)),
        "gzip": (lambda data: [gzip.compress(data, 1), gzip.compress(data, 9)], lambda data, size: gzip.decompress(data)),
    }
    failures = []
    started = time.time()
    cases = inputs()
    with tempfile.TemporaryDirectory() as folder:
        def run(codec, action, data):
            source, target = os.path.join(folder, "in"), os.path.join(folder, "out")
            pathlib.Path(source).write_bytes(data)
            result = subprocess.run([bench, "codec", codec, action, source, target], capture_output=True, text=True)
            if result.returncode != 0:
                return None, result.stderr.strip()
            return pathlib.Path(target).read_bytes(), None

        for codec, (compressors, decompress) in theirs.items():
            for label, data in cases.items():
                if codec != "zstd" and label == "over 8 MiB":
                    continue
                ours, error = run(codec, "compress", data)
                if error:
                    failures.append(f"{codec} {label}: our compressor failed: {error}")
                    continue
                try:
                    back = decompress(ours, max(len(data), 1))
                except Exception as exc:  # noqa: BLE001 - any failure of theirs is a finding
                    back = f"{type(exc).__name__}: {exc}"
                if back != data:
                    failures.append(f"{codec} {label}: {codec} package does not read our output back ({str(back)[:120]})")
                for index, stream in enumerate(compressors(data)):
                    back, error = run(codec, "decompress", stream)
                    if back != data:
                        failures.append(f"{codec} {label}: we do not read the package's stream {index} back ({error or len(back)})")
                if codec == "zstd" and label in ("text", "mixed"):
                    theirs_size = len(zstd_levels[0].compress(data))
                    print(f"zstd {label}: {len(data)} bytes -> ours {len(ours)} ({len(data) / len(ours):.1f}x), "
                          f"zstandard level 1 {theirs_size} ({len(data) / theirs_size:.1f}x)")
                    if len(ours) * 3 > len(data) * 2:
                        failures.append(f"zstd {label}: {len(ours)} of {len(data)} bytes does not compress")
    for failure in failures:
        print("FAIL", failure)
    print(f"verify-codecs: {len(cases)} inputs x 4 codecs both ways, {len(failures)} failures, {time.time() - started:.1f} s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
