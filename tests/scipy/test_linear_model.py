"""flexarm-cli linearize as a control engineer uses it: scipy.io.loadmat reads the .mat file, its
matrices equal the CSV's, the eigenvalues of A (NumPy's, not FlexArm's eigensolver) are the natural
frequencies `flexarm-cli modes` prints, and the static gain of a hub held by a spring is its closed form."""
import json
import os
import re
import subprocess

import numpy as np
import pytest
import scipy.io

CLI = os.environ["FLEXARM_CLI"]

STRIP = {"section": {"preset": "rectangle", "width": 0.03, "height": 0.012}, "material": {"preset": "steel"},
         "basis": "fem", "elements": 6, "layout": "planar"}
L, K_THETA = 1.5, 2000.0


def project(tmp_path, drive, name="arm.flexarm.json"):
    p = {"format": "flexarm-project", "schema_version": 1, "name": "Strip on a hub", "gravity": [0, 0, 0],
         "links": [{"name": "beam", "length": L, "flex": STRIP}],
         "joints": [{"name": "hub", "type": "revolute", "axis": [0, 0, 1], "drive": drive}]}
    path = tmp_path / name
    path.write_text(json.dumps(p))
    return str(path)


def cli(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)


def read_csv_model(path):
    """The CSV form: '#' comments, then blocks [A] [B] [C] [D], each a header of column names and named rows."""
    blocks, name = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        cells = line.split(",")
        if cells[0].startswith("["):
            name = cells[0][1:-1]
            blocks[name] = {"columns": cells[1:], "rows": [], "values": []}
        else:
            blocks[name]["rows"].append(cells[0])
            blocks[name]["values"].append([float(x) for x in cells[1:]])
    return {k: (np.array(v["values"]).reshape(len(v["rows"]), len(v["columns"])), v["rows"], v["columns"])
            for k, v in blocks.items()}


def names(cell):
    return [str(np.asarray(x).item()) if np.asarray(x).size else "" for x in np.asarray(cell).ravel()]


def test_mat_file_reads_in_scipy_equals_the_csv_and_its_eigenvalues_are_the_modes(tmp_path):
    arm = project(tmp_path, {"type": "free"})
    mat, csv = str(tmp_path / "model.mat"), str(tmp_path / "model.csv")
    for out in (mat, csv):
        r = cli("linearize", arm, "--lock-joints", "--out", out)
        assert r.returncode == 0, r.stdout + r.stderr
    assert "tau.hub acts on a held joint" in r.stdout

    m = scipy.io.loadmat(mat)
    c = read_csv_model(csv)
    for key in "ABCD":
        assert m[key].shape == c[key][0].shape, key
        np.testing.assert_array_equal(m[key], c[key][0])  # both at round-trip precision
    states, inputs, outputs = names(m["states"]), names(m["inputs"]), names(m["outputs"])
    assert states == c["A"][1] == c["A"][2]
    assert states[:2] == ["e.beam.1", "e.beam.2"] and states[12:14] == ["ed.beam.1", "ed.beam.2"]
    assert inputs == c["B"][2] == ["tau.hub"]
    assert outputs == c["C"][1] == ["tip.beam.v", "q.hub"]
    assert names(m["input_units"]) == ["N m"] and names(m["output_units"]) == ["m", "rad"]
    assert "joints held" in str(m["operating_point"][0])
    assert "project Strip on a hub" in str(m["description"][0])

    # NumPy's eigenvalues of the exported A against the frequencies `modes` prints.
    lam = np.linalg.eigvals(m["A"])
    omega = np.sort(lam.imag[lam.imag > 0])
    r = cli("modes", arm, "--lock-joints", "--count", "100")
    assert r.returncode == 0, r.stderr
    printed = [float(x) for x in re.findall(r"^\s*\d+\s+\S+\s+(\S+)", r.stdout, re.M)]
    assert len(printed) == len(omega) == 12
    np.testing.assert_allclose(omega, printed, rtol=1e-5)  # modes prints 6 significant digits
    assert np.abs(lam.real).max() < 1e-6 * np.abs(lam).max()  # undamped


def test_static_gain_of_a_hub_held_by_a_spring(tmp_path):
    # A PD drive with kp = k_theta, kd = 0 is a torsional spring on the hub. Statically the beam carries
    # no load (the spring takes the whole hub torque) and stays straight: theta = tau / k_theta, the tip
    # moves L tau / k_theta sideways, the elastic tip deflection is zero.
    arm = project(tmp_path, {"type": "pd", "kp": K_THETA, "kd": 0, "setpoint": {"law": "constant", "value": 0}})
    out = str(tmp_path / "hub.mat")
    r = cli("linearize", arm, "--inputs", "hub", "--outputs", "tip,joints,tip.beam.y", "--out", out)
    assert r.returncode == 0, r.stdout + r.stderr
    m = scipy.io.loadmat(out)
    assert names(m["outputs"]) == ["tip.beam.v", "q.hub", "tip.beam.y"]
    dc = m["D"] - m["C"] @ np.linalg.solve(m["A"], m["B"])
    assert dc[1, 0] == pytest.approx(1 / K_THETA, rel=1e-7)
    assert dc[2, 0] == pytest.approx(L / K_THETA, rel=1e-7)
    assert abs(dc[0, 0]) < 1e-9 * L / K_THETA


@pytest.mark.parametrize("args, message", [
    (["--outputs", "tip.bem.v"], 'unknown output "tip.bem.v"'),
    (["--inputs", ""], "--inputs: no inputs"),
    (["--inputs", "elbow"], 'unknown input "elbow"'),
    (["--out", "/nonexistent-dir/model.mat"], "--out"),
    (["--out", "model.txt"], "--out: the model is written as .mat"),
])
def test_bad_input_exits_with_2_and_a_message(tmp_path, args, message):
    arm = project(tmp_path, {"type": "free"})
    full = ["linearize", arm, *args]
    if "--out" not in args:
        full += ["--out", str(tmp_path / "model.mat")]
    r = cli(*full)
    assert r.returncode == 2, r.stdout + r.stderr
    assert message in r.stderr
    assert not (tmp_path / "model.mat").exists()
