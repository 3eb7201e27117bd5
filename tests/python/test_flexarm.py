"""The flexarm Python module against flexarm-cli: same runs, same messages, same studies and modes."""
import csv
import json
import math
import os
import subprocess
import threading
import time

import numpy as np
import pytest

import flexarm

PROJECTS = os.environ["FLEXARM_PROJECTS_DIR"]
CLI = os.environ["FLEXARM_CLI"]


def shipped(name):
    return os.path.join(PROJECTS, name + ".flexarm.json")


def data_rows(path):
    """The CSV's rows, header first (there is nothing before it)."""
    with open(path, newline="") as f:
        return list(csv.reader(f))


def test_a_run_equals_the_cli_csv_to_the_last_digit(tmp_path):
    p = flexarm.load(shipped("two-link-flexible-arm"))
    r = flexarm.simulate(p, t_end=0.5)
    assert r.status == "completed" and not r.diverged
    r.to_csv(tmp_path / "py.csv")
    subprocess.run([CLI, "run", shipped("two-link-flexible-arm"), "--t-end", "0.5", "-q", "-o", str(tmp_path / "cli.csv")],
                   check=True, capture_output=True)
    cli = data_rows(tmp_path / "cli.csv")
    assert data_rows(tmp_path / "py.csv") == cli
    # and the arrays hold exactly the CSV's numbers
    header = cli[0]
    for name in ("t", "tip.link2.v", "q.shoulder"):
        if name in header:
            k = header.index(name)
            assert np.array_equal(r[name], np.array([float(row[k]) for row in cli[1:]])), name


def test_accuracy_error_estimate_and_verify():
    # Issue 40: auto chooses and says why; every result carries its error estimate per output group;
    # verify=True measures it against a run at a tenth of the accuracy, as flexarm-cli run --verify.
    p = flexarm.load(shipped("two-link-flexible-arm"))
    r = flexarm.simulate(p, t_end=0.5)
    assert r.accuracy == 1e-3
    assert "Generalized-α" in r.method_choice and "driven" in r.method_choice
    assert set(r.errors) == {"ee", "tip.upper", "tip.fore", "joints"}
    assert r.errors["ee"]["unit"] == "m" and r.errors["ee"]["measured"] is None
    assert r.errors["ee"]["relative"] == pytest.approx(r.errors["ee"]["estimate"] / r.errors["ee"]["excursion"])
    v = flexarm.simulate(p, t_end=0.5, accuracy=1e-4, verify=True)
    assert v.accuracy == 1e-4
    for group, e in v.errors.items():
        assert e["measured"] is not None and 0 <= e["measured"] <= 3 * e["relative"], (group, e)
    assert v.errors["ee"]["estimate"] < r.errors["ee"]["estimate"]
    with pytest.raises(ValueError, match="simulation.accuracy"):
        flexarm.simulate(p, accuracy=-1)


def test_the_cli_csv_opens_without_options_and_its_sidecar_describes_the_run(tmp_path):
    # pandas, csv.DictReader: the header is the first row; the description is the JSON beside it.
    import pandas  # Debian's python3-pandas (install-deps); a missing pandas fails the test
    out = tmp_path / "arm.csv"
    subprocess.run([CLI, "run", shipped("two-link-flexible-arm"), "--t-end", "0.2", "-q", "-o", str(out)],
                   check=True, capture_output=True)
    frame = pandas.read_csv(out)
    r = flexarm.simulate(flexarm.load(shipped("two-link-flexible-arm")), t_end=0.2)
    assert list(frame.columns) == r.channels
    assert len(frame) == len(r)
    assert repr(r).endswith("t_end 0.2 s>"), repr(r)  # the shortest exact form, as in the files
    assert frame["t"].dtype == np.float64
    # pandas' default number parser is fast, not exact: it may miss the written double by a few ulp;
    # float_precision="round_trip" reads every value exactly.
    np.testing.assert_allclose(frame["t"].to_numpy(), r["t"], rtol=1e-14, atol=0)
    np.testing.assert_allclose(frame["q.shoulder"].to_numpy(), r["q.shoulder"], rtol=1e-14, atol=1e-300)
    exact = pandas.read_csv(out, float_precision="round_trip")
    for name in r.channels:
        assert np.array_equal(exact[name].to_numpy(), r[name]), name
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(r)
    assert list(rows[0].keys()) == r.channels
    assert float(rows[-1]["t"]) == r["t"][-1]
    with open(tmp_path / "arm.meta.json") as f:
        meta = json.load(f)
    assert meta["format"] == "flexarm-results-metadata"
    assert meta["status"] == "completed"
    assert meta["end_time"] == r.end_time
    assert meta["stats"]["steps"] > 0
    assert [c["name"] for c in meta["channels"]] == r.channels
    assert {c["name"]: c["unit"] for c in meta["channels"]} == r.units
    # to_csv writes the same pair.
    r.to_csv(tmp_path / "py.csv")
    assert pandas.read_csv(tmp_path / "py.csv").equals(frame)
    with open(tmp_path / "py.meta.json") as f:
        assert json.load(f)["channels"] == meta["channels"]


def test_arrays_are_views_of_the_engines_rows():
    r = flexarm.simulate(flexarm.load(shipped("spin-up-beam")), t_end=1.0)
    v = r["tip.beam.v"]
    assert v.base is not None and not v.flags.writeable
    assert np.shares_memory(v, r.data)
    assert r.data.shape == (len(r), len(r.channels))
    assert r.units["tip.beam.v"] == "m" and r.units["t"] == "s"
    assert r.stats["steps"] > 0
    assert list(r.to_pandas().columns) == r.channels
    with pytest.raises(KeyError, match="tip.beam.v"):
        r["tip.beam.vv"]


def test_refused_values_name_the_json_path_as_the_cli_does():
    p = flexarm.load(shipped("spin-up-beam"))
    with pytest.raises(flexarm.ProjectError) as e:
        p.set("links[0].length", -2)
    cli = subprocess.run([CLI, "check", shipped("spin-up-beam"), "--set", "links[0].length=-2"], capture_output=True, text=True)
    assert cli.returncode == 2
    assert "links[0].length" in str(e.value)
    for line in str(e.value).splitlines():
        assert line in cli.stderr + cli.stdout
    assert p.get("links[0].length") == 8.0  # unchanged
    with pytest.raises(flexarm.ProjectError, match=r"links\[0\]\.lenght: not a field of the project format"):
        p.set("links[0].lenght", 3)  # misspelled: refused, not silently ignored
    with pytest.raises(flexarm.ProjectError, match="no_such_key|nothing|no such"):
        p.get("links[0].no_such_key")
    with pytest.raises(flexarm.ProjectError):
        flexarm.load(os.path.join(os.environ["FLEXARM_TEST_DATA_DIR"], "bad", "negative-length.json"))


def test_save_is_the_canonical_file(tmp_path):
    p = flexarm.load(shipped("spatial-rrr-flexible-seed004"))
    p.save(tmp_path / "a.flexarm.json")
    with open(os.path.join(os.environ["FLEXARM_TEST_DATA_DIR"], "canonical", "spatial-rrr-flexible-seed004.flexarm.json"), "rb") as f:
        assert (tmp_path / "a.flexarm.json").read_bytes() == f.read()
    q = flexarm.Project.from_dict(p.to_dict(), base_dir=PROJECTS)
    assert q.to_dict() == p.to_dict()


def test_templates_and_new():
    ids = [t["id"] for t in flexarm.templates()]
    assert "single-flexible-link" in ids
    p = flexarm.new("single-flexible-link", name="rod", **{"links[0].length": 3.0})
    assert p.name == "rod" and p.get("links[0].length") == 3.0
    with pytest.raises(flexarm.ProjectError, match="links\\[0\\].length"):
        flexarm.new("single-flexible-link", **{"links[0].length": -1})
    with pytest.raises(flexarm.ProjectError, match="single-flexible-link"):
        flexarm.new("no-such-template")


def test_a_diverged_run_is_a_result_not_an_exception():
    p = flexarm.load(shipped("spin-up-beam"))
    p.set("coupling", "zero")
    p.set("joints[0].drive.omega0", 8)
    r = flexarm.simulate(p, t_end=30)
    assert r.diverged and r.status == "diverged"
    assert "diverged at t =" in r.message and 0 < r.end_time < 30
    assert np.all(np.isfinite(r.data))


def test_an_exception_from_progress_stops_a_long_run_and_keeps_its_rows():
    p = flexarm.load(shipped("spatial-rrr-flexible-seed004"))  # about 3 s of CPU for its 1 s
    p.set("simulation.t_end", 20)
    started = time.monotonic()
    raised_at = []

    def progress(t, t_end):
        if time.monotonic() - started > 0.3:
            raised_at.append(time.monotonic())
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as e:
        flexarm.simulate(p, progress=progress)
    stopped = time.monotonic()
    assert stopped - raised_at[0] < 0.2
    r = e.value.result
    assert r.status == "cancelled" and len(r) > 1 and r.end_time < 20


def test_the_gil_is_released_during_a_run():
    p = flexarm.load(shipped("spatial-rrr-flexible-seed004"))
    p.set("simulation.t_end", 1.0)  # long enough to watch: 0.3 s now runs in about 0.05 s
    # generalized-alpha at rtol 5e-7, as the project shipped before issue 40: under auto 1 s runs in 0.03 s
    p.set("simulation.solver.method", "galpha")
    p.set("simulation.solver.rtol", 5e-7)
    p.set("simulation.solver.atol", 5e-9)
    ticks = []
    running = threading.Event()

    def other():
        while not running.is_set():
            time.sleep(0.001)
        while running.is_set():
            ticks.append(1)
            time.sleep(0.001)

    thread = threading.Thread(target=other)
    thread.start()
    running.set()
    t0 = time.monotonic()
    r = flexarm.simulate(p, progress=None)
    wall = time.monotonic() - t0
    running.clear()
    thread.join()
    assert r.status == "completed"
    assert wall > 0.05 and len(ticks) > 0.3 * wall / 0.002  # the other thread ran during most of the run


def test_a_study_matches_the_cli_summary(tmp_path):
    p = flexarm.load(shipped("spin-up-beam"))
    p.set("study.grid", {"joints[0].drive.omega0": [0.6, 2.0, 8.0], "coupling": ["zero", "high"]})
    p.save(tmp_path / "study.flexarm.json")
    s = flexarm.study(p, workers=2, t_end=4.0)
    assert len(s["cases"]) == 6
    subprocess.run([CLI, "study", str(tmp_path / "study.flexarm.json"), "--t-end", "4", "-o", str(tmp_path / "out")],
                   capture_output=True)
    with open(tmp_path / "out" / "summary.csv", newline="") as f:
        cli = list(csv.DictReader(f))
    assert [row["case"] for row in cli] == [row["case"] for row in s["summary"]]
    for mine, theirs in zip(s["summary"], cli):
        assert mine["status"] == theirs["status"]
        metrics = [k for k in mine if k.startswith(("peak_", "final."))]
        assert metrics
        for k in metrics:
            if theirs[k] == "":
                assert math.isnan(mine[k])
            else:
                assert mine[k] == float(theirs[k]), (mine["case"], k)


def test_compare_runs_variants_side_by_side():
    p = flexarm.load(shipped("spin-up-beam"))
    c = flexarm.compare(p, ["zero-order", "high-order"], t_end=2.0)
    assert [x["name"] for x in c["cases"]] == ["zero-order", "high-order"]
    assert all(x["results"].status == "completed" for x in c["cases"])
    with pytest.raises(flexarm.ProjectError):
        flexarm.compare(p, ["no-such-variant"])


def test_modes_match_the_cli():
    p = flexarm.load(shipped("cantilever"))
    m = flexarm.modes(p, lock_joints=True)
    out = subprocess.run([CLI, "modes", shipped("cantilever"), "--lock-joints", "--count", "4"], capture_output=True,
                         text=True, check=True).stdout
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert len(rows) == 4
    for k, row in enumerate(rows):
        assert float(row[1]) == pytest.approx(m["frequency_hz"][k], rel=1e-5)
        assert float(row[2]) == pytest.approx(m["omega"][k], rel=1e-5)
    assert m["shapes"].shape == (len(m["frequency_hz"]), len(m["coordinates"]))
    assert np.allclose(np.max(np.abs(m["shapes"]), axis=1), 1.0)


def test_centreline_of_a_straight_link_at_rest():
    p = flexarm.load(shipped("cantilever"))
    r = flexarm.simulate(p, t_end=0.05)
    pts = r.centreline(0, 0.0, samples=11)
    assert pts.shape == (11, 3)
    length = p.get("links[0].length")
    assert np.linalg.norm(pts[-1] - pts[0]) == pytest.approx(length, rel=1e-3)


def interrupted_after(script, project, delay=0.5):
    """Runs `script` (which prints 'started' first) on `project` in a new interpreter, sends it SIGINT `delay`
    seconds after it started, and returns its output and the seconds from the signal to its end."""
    import signal
    import sys
    proc = subprocess.Popen([sys.executable, "-c", script, project], stdout=subprocess.PIPE, text=True, env=os.environ)
    assert proc.stdout.readline().strip() == "started"
    time.sleep(delay)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=20)
    return out, time.monotonic() - sent


def test_ctrl_c_stops_a_run_within_200_ms_and_keeps_its_rows():
    script = (
        "import sys, flexarm\n"
        "p = flexarm.load(sys.argv[1]); p.set('simulation.t_end', 50)\n"
        "print('started', flush=True)\n"
        "try:\n"
        "    flexarm.simulate(p)\n"
        "except KeyboardInterrupt as e:\n"
        "    print('interrupted', e.result.status, len(e.result), flush=True)\n")
    out, elapsed = interrupted_after(script, shipped("spatial-rrr-flexible-seed004"))
    words = out.split()
    assert words[:2] == ["interrupted", "cancelled"], out
    assert int(words[2]) > 1
    assert elapsed < 0.2 + 0.1  # the run stops within 200 ms (plus the interpreter's exit)


def test_ctrl_c_stops_the_modes_of_a_fine_mesh_within_500_ms():
    script = (
        "import sys, flexarm\n"
        "p = flexarm.load(sys.argv[1]); p.set('links[0].flex.elements', 200)\n"
        "print('started', flush=True)\n"
        "try:\n"
        "    flexarm.modes(p)\n"
        "    print('finished', flush=True)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n")
    out, elapsed = interrupted_after(script, shipped("cantilever"))
    assert out.strip() == "interrupted"
    assert elapsed < 0.5 + 0.1  # within 500 ms (plus the interpreter's exit)


def test_modes_of_a_fine_mesh_are_the_lowest_ones():
    p = flexarm.load(shipped("cantilever"))
    p.set("links[0].flex.elements", 200)
    m = flexarm.modes(p, lock_joints=True, count=4)
    assert 4 <= len(m["omega"]) < 1200
    assert m["shapes"].shape == (len(m["omega"]), 1200)
    # Euler-Bernoulli: the first bending frequency of the tube, in both planes.
    E, rho, D, d, L = 68.9e9, 2700.0, 0.05, 0.044, 2.0  # the aluminium preset
    A, I = math.pi / 4 * (D**2 - d**2), math.pi / 64 * (D**4 - d**4)
    omega = 1.87510407**2 / L**2 * math.sqrt(E * I / (rho * A))
    assert m["omega"][:2] == pytest.approx([omega, omega], rel=2e-3)
    with pytest.raises(flexarm.ProjectError):
        flexarm.modes(p, count=-1)


@pytest.mark.parametrize("script, png", [("spin_up_zero_vs_high.py", "spin_up_zero_vs_high.png"),
                                         ("seed004_end_effector.py", "seed004_end_effector.png")])
def test_the_examples_run_headless(tmp_path, script, png):
    import sys
    examples = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python")
    env = dict(os.environ, MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, os.path.join(examples, script), str(tmp_path)], env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / png).stat().st_size > 10000


# ---------------------------------------------------------------- issue 45: inputs that can no longer hurt


def test_new_refuses_a_keyword_that_names_no_field():
    """F10: length=1.25 was ignored (a 1.0 m link); an unknown keyword is a TypeError naming it."""
    with pytest.raises(TypeError, match="unexpected keyword argument 'length'.*links\\[0\\]\\.length"):
        flexarm.new("single-flexible-link", length=1.25)
    p = flexarm.new("single-flexible-link", **{"links[0].length": 1.25})
    assert p.get("links[0].length") == 1.25


def test_centreline_samples_are_bounded_and_t_is_finite():
    """F12: samples=10**8 held the GIL for a minute; 0, -1 and t=nan were accepted."""
    r = flexarm.simulate(flexarm.load(shipped("cantilever")), t_end=0.05)
    for samples in (10**8, 100001, 1, 0, -1):
        with pytest.raises(ValueError, match="samples must be between 2 and 100000, got " + str(samples)):
            r.centreline(0, 0.0, samples=samples)
    for t in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="t must be a finite time"):
            r.centreline(0, t)
    assert r.centreline(0, 0.0, samples=2).shape == (2, 3)
    started = time.monotonic()
    assert r.centreline(0, 0.0, samples=100000).shape == (100000, 3)
    assert time.monotonic() - started < 5


def test_load_names_what_is_wrong_with_utf16_files_and_undecodable_paths(tmp_path):
    """F13: a file starting FF FE, or a path with a byte that is not UTF-8, gave ProjectError('')."""
    with open(shipped("cantilever"), encoding="utf-8") as f:
        text = f.read()
    utf16 = tmp_path / "utf16.flexarm.json"
    utf16.write_bytes(text.encode("utf-16"))  # with its byte-order mark, FF FE on this machine
    with pytest.raises(flexarm.ProjectError, match="is UTF-16 text .*byte-order mark FF FE.*save it as UTF-8"):
        flexarm.load(str(utf16))
    odd = os.fsencode(str(tmp_path)) + b"/caf\xe9.flexarm.json"
    with open(odd, "wb") as f:
        f.write(b'{"format": "flexarm-project", "schema_version": 1, "links": 3}')
    with pytest.raises(flexarm.ProjectError) as e:
        flexarm.load(os.fsdecode(odd))
    message = str(e.value)
    assert "caf\\xe9.flexarm.json" in message and "links" in message, message


def test_static_equilibrium_under_a_tip_load_matches_the_cli_and_pl3_over_3ei(tmp_path):
    p = flexarm.load(shipped("cantilever"))
    p.set("gravity", [0, 0, 0])
    p.set("loads", [{"name": "tool", "link": "beam", "point": [2.0, 0, 0], "force": [0, -50, 0]}])
    s = flexarm.static(p)
    # The shipped aluminium tube: E = 68.9 GPa (the preset), I = pi (D^4 - d^4) / 64.
    E, I = 68.9e9, math.pi * (0.05 ** 4 - 0.044 ** 4) / 64
    w = s["results"].data[0][s["results"].channels.index("tip.beam.v")]
    assert w == pytest.approx(-50 * 2.0 ** 3 / (3 * E * I), rel=2e-3)
    assert s["efforts"]["clamp"] == pytest.approx(50 * 2.0, rel=1e-3)  # the moment that holds the clamp
    p.save(tmp_path / "loaded.flexarm.json")
    out = subprocess.run([CLI, "static", str(tmp_path / "loaded.flexarm.json"), "--out", str(tmp_path / "static.csv")],
                         capture_output=True, text=True, check=True).stdout
    assert "flexible link tip" in out
    rows = data_rows(tmp_path / "static.csv")
    assert float(rows[1][rows[0].index("tip.beam.v")]) == pytest.approx(w, rel=1e-12)
    free = flexarm.load(shipped("cantilever"))
    free.set("joints[0].drive", {"type": "free"})
    free.set("gravity", [0, 0, 0])
    with pytest.raises(RuntimeError, match="nothing holds q.clamp"):
        flexarm.static(free)


def test_a_run_continued_from_a_saved_row_matches_the_cli_and_one_run(tmp_path):
    # Canadarm2 has flexible joints and flexible booms: its state is q, qd, qm, qmd, e and ed.
    p = flexarm.load(shipped("canadarm2-drop-seed000"))
    tight = dict(solver="bdf", rtol=1e-8, atol=1e-10)
    whole = flexarm.simulate(p, t_end=0.4, **tight)
    first = flexarm.simulate(p, t_end=0.4, **tight)
    rest = flexarm.simulate(p, t_end=0.4, start_from=first, start_at=0.2, **tight)
    assert rest["t"][0] == pytest.approx(0.2, abs=1e-12)
    assert rest["t"][-1] == pytest.approx(0.4, abs=1e-12)
    for channel in ("q.elbow_pitch", "qm.elbow_pitch", "tip.lower_boom.v"):
        scale = np.abs(whole[channel]).max()
        assert abs(rest[channel][-1] - whole[channel][-1]) < 1e-6 * scale, channel
    with pytest.raises(ValueError, match="no row at t = 7 s"):
        flexarm.simulate(p, t_end=0.4, start_from=first, start_at=7.0)
    with pytest.raises(ValueError, match="start_at needs start_from"):
        flexarm.simulate(p, start_at=0.1)
    # The same continuation from the command line, from the CSV the first run wrote.
    first.to_csv(tmp_path / "first.csv")
    subprocess.run([CLI, "run", shipped("canadarm2-drop-seed000"), "--t-end", "0.4", "--quiet",
                    "--set", "simulation.solver.method=bdf", "--set", "simulation.solver.rtol=1e-8",
                    "--set", "simulation.solver.atol=1e-10", "--start-from", str(tmp_path / "first.csv"),
                    "--start-at", "0.2", "--out", str(tmp_path / "rest.csv")], check=True, capture_output=True)
    rows = data_rows(tmp_path / "rest.csv")
    assert float(rows[1][0]) == pytest.approx(0.2, abs=1e-12)
    column = rows[0].index("q.elbow_pitch")
    assert float(rows[-1][column]) == pytest.approx(rest["q.elbow_pitch"][-1], rel=1e-12, abs=1e-15)
