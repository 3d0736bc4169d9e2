"""Any Hypothesis example database from one value (turub.properties.databases): a folder,
redis://HOST:PORT/N, readonly:X, A + B; an unknown scheme is an error, never a folder.  A
campaign in two folders sharing one redis-server: the second replays the first's
counterexample."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis.database import DirectoryBasedExampleDatabase, MultiplexedDatabase, ReadOnlyDatabase

from turub.properties.databases import DatabaseError, example_database

BROKEN = Path(__file__).resolve().parent / "broken" / "impl.py"


def test_each_form_is_the_hypothesis_database_it_names(tmp_path):
    assert isinstance(example_database(str(tmp_path / "db")), DirectoryBasedExampleDatabase)
    assert isinstance(example_database(f"readonly:{tmp_path / 'db'}"), ReadOnlyDatabase)
    both = example_database(f"readonly:{tmp_path / 'team'} + {tmp_path / 'mine'}")
    assert isinstance(both, MultiplexedDatabase)
    # Read the team's findings, write locally: a save reaches only the writable one.
    both.save(b"k", b"v")
    assert list(example_database(str(tmp_path / "mine")).fetch(b"k")) == [b"v"]
    assert list(example_database(str(tmp_path / "team")).fetch(b"k")) == []


@pytest.mark.parametrize("value", ["ftp://host/db", "http://127.0.0.1:6379", "s3://bucket/x", ""])
def test_a_value_of_another_scheme_is_refused_and_makes_no_folder(value, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DatabaseError):
        example_database(value)
    assert list(tmp_path.iterdir()) == []


def test_an_unreachable_redis_is_refused_and_makes_no_folder(tmp_path, monkeypatch):
    pytest.importorskip("redis")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DatabaseError, match="cannot be used"):
        example_database(f"redis://127.0.0.1:{free_port()}/0")
    assert list(tmp_path.iterdir()) == []


def test_the_plugin_refuses_a_url_it_cannot_use_in_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--turub-sample",
                           "--turub-database", "ftp://127.0.0.1:6391/0"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 4 and "--turub-database: ftp://127.0.0.1:6391/0" in done.stderr
    assert list(tmp_path.iterdir()) == []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def redis_url(tmp_path):
    """A redis-server of this test's own, bound to 127.0.0.1 on a free port, stopped by its pid."""
    pytest.importorskip("redis", reason="the redis extra (turub[redis]) is not installed")
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (.ci/run installs it with apt-get)")
    port = free_port()
    proc = subprocess.Popen([server, "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"redis://127.0.0.1:{port}/0"
        for _ in range(100):
            try:
                example_database(url)
                break
            except DatabaseError:
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_two_folders_share_one_redis_and_the_second_replays_the_first(tmp_path, redis_url):
    program = f"{sys.executable} {BROKEN} no-follow-suit"
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir(), second.mkdir()

    def pytest_in(folder, *args, env=None):
        return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args],
                              cwd=folder, capture_output=True, text=True, timeout=300, env=env)

    found = pytest_in(first, "--turub-program", program, "--turub-database", redis_url,
                      "--turub-item", "differential/deal", "--turub-examples", "150")
    assert found.returncode == 1 and "breaks play.follow-suit" in found.stdout, found.stdout[-2000:]
    tiny = ["--turub-program", program, "--turub-examples", "1", "--turub-seed", "99",
            "--turub-item", "differential/deal"]
    assert pytest_in(second, *tiny).returncode == 0  # alone, too small to find it
    # Through TURUB_DATABASE, as the profiles read it: the first's counterexample, exactly.
    replayed = pytest_in(second, *tiny, env={**os.environ, "TURUB_DATABASE": redis_url})
    assert replayed.returncode == 1, replayed.stdout[-2000:]
    assert counterexample(replayed.stdout) == counterexample(found.stdout)
    assert not any(second.iterdir()), "no folder made for the Redis store"


def counterexample(output: str) -> list[str]:
    """The lines of the failure that describe the situation found (not the timings)."""
    block = output[output.index("breaks play.follow-suit"):]
    return [line for line in block.splitlines()[:40] if line and not re.search(r"\d+(\.\d+)? ?s(econds)?\b", line)
            and not line.startswith(("FAILED", "=", "reproduce"))]


def test_the_profiles_read_turub_database_through_the_same_reader(tmp_path):
    from hypothesis import settings

    from turub.properties import profiles
    before = settings.get_current_profile_name()
    try:
        profiles.load({"TURUB_DATABASE": f"readonly:{tmp_path / 'team'} + {tmp_path / 'mine'}"})
        assert isinstance(settings.default.database, MultiplexedDatabase)
        with pytest.raises(DatabaseError):
            profiles.load({"TURUB_DATABASE": "ftp://host/db"})
    finally:
        settings.load_profile(before)
    assert not (tmp_path / "ftp:").exists()


def test_two_hosts_at_the_same_time_share_one_redis_and_replay_one_counterexample(tmp_path, redis_url):
    """The guide's campaign across two hosts: two copies of the project, each in a folder of
    its own, search at the same time (each with its own seed) against one redis-server; the
    second host's next plain run replays the first's counterexample, exactly."""
    program = f"{sys.executable} {BROKEN} no-follow-suit"
    hosts = [tmp_path / "host-a", tmp_path / "host-b"]
    for host in hosts:
        host.mkdir()
    # Each host: a working directory of its own, as on two machines.
    common = ["--turub-program", program, "--turub-database", redis_url,
              "--turub-item", "differential/deal", "--turub-examples", "150"]
    running = []
    for host, seed in zip(hosts, ("1", "1001")):
        running.append(subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                                         *common, "--turub-seed", seed], cwd=host,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    # At the same time: the first host is still searching when the second starts.
    assert running[0].poll() is None
    try:
        outputs = [p.communicate(timeout=300)[0] for p in running]
    finally:
        for p in running:
            if p.poll() is None:
                p.kill()
                p.wait()
    for p, out in zip(running, outputs):
        assert p.returncode == 1 and "breaks play.follow-suit" in out, out[-2000:]
    assert counterexample(outputs[0]) == counterexample(outputs[1]), "both shrink to one situation"
    tiny = ["--turub-program", program, "--turub-examples", "1", "--turub-seed", "99",
            "--turub-item", "differential/deal"]
    alone = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *tiny],
                           cwd=hosts[1], capture_output=True, text=True, timeout=300)
    assert alone.returncode == 0, "alone, too small to find it"
    replayed = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *tiny],
                              cwd=hosts[1], capture_output=True, text=True, timeout=300,
                              env={**os.environ, "TURUB_DATABASE": redis_url})
    assert replayed.returncode == 1, replayed.stdout[-2000:]
    assert counterexample(replayed.stdout) == counterexample(outputs[0])
    # No example folder made for the Redis store (Hypothesis's constants cache aside).
    for host in hosts:
        assert {p.name for p in host.iterdir()} <= {".hypothesis"}
        assert {p.name for p in (host / ".hypothesis").glob("*")} <= {".gitignore", "constants"}
