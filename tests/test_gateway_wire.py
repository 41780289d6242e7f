"""The real bot process against what the gateway may send and when it is gone, over the
wire with the local Discord stand-in: any JSON shape as an interaction (Hypothesis) gets
an answer or one dropped line and never stops the process or a table; SIGTERM ends the
process within the README's stop timeout while discord.py is trying to reconnect
(README, Running at scale: the systemd unit's TimeoutStopSec)."""

from __future__ import annotations

import asyncio
import copy
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.sqlite_rig import Figures, Rig
from tests.support.standin import Interaction, snowflake

pytestmark = pytest.mark.slow  # starts bot processes

#: The README's systemd unit: TimeoutStopSec=15.
STOP_TIMEOUT = 15.0
#: The bot's line for an interaction it could not read, with its id when it has one.
DROPPED = re.compile(r"dropped a malformed INTERACTION_CREATE event (\d+)")
#: discord.py's line before it pauses between two attempts to reach the gateway.
RETRY = re.compile(r"Attempting a reconnect in (\d+\.\d+)s")

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def shapes(bases: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """``count`` interaction payloads: real ones (a click, a slash command) with keys
    dropped or their values replaced by any JSON, at the top and in ``data``, and now
    and then any JSON at all. Drawn by Hypothesis, derandomized so CI draws the same."""
    found: list[dict[str, Any]] = []
    top = sorted({key for base in bases for key in base})
    inner = sorted({key for base in bases for key in base.get("data", {})})

    @settings(
        max_examples=count,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        deadline=None,
    )
    @given(
        base=st.sampled_from(bases),
        drop=st.sets(st.sampled_from(top), max_size=3),
        swap=st.dictionaries(st.sampled_from(top), JSON, max_size=2),
        drop_inner=st.sets(st.sampled_from(inner), max_size=2),
        swap_inner=st.dictionaries(st.sampled_from(inner), JSON, max_size=2),
        whole=st.one_of(st.none(), JSON),
    )
    def draw(
        base: dict[str, Any],
        drop: set[str],
        swap: dict[str, Any],
        drop_inner: set[str],
        swap_inner: dict[str, Any],
        whole: Any,
    ) -> None:
        if whole is not None and len(found) % 10 == 0:
            found.append(whole)
            return
        payload = copy.deepcopy(base)
        payload["id"], payload["token"] = str(snowflake()), f"fuzz{len(found)}"
        data = payload.get("data")
        if isinstance(data, dict):
            for key in drop_inner:
                data.pop(key, None)
            data.update(swap_inner)
        for key in drop:
            payload.pop(key, None)
        payload.update(swap)
        found.append(payload)

    draw()
    return found


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    shared = Rig(tmp_path)
    try:
        yield shared
    finally:
        await shared.close()


async def test_any_interaction_shape_gets_an_answer_or_a_logged_drop(rig: Rig) -> None:
    await rig.start()
    players = rig.standin.members
    table = rig.driver.add_table(rig.standin.channels[0], players[:2], "mexican")
    await rig.open(table)
    await rig.played(table)
    assert table.live is not None
    click = rig.standin.click(table.live, players[0], "mxm:garbage")
    slash = rig.standin.slash(table.channel_id, players[0], "claim", {"value": "65"})
    payloads = shapes([click.payload, slash.payload], 300)
    channel = table.channel_id
    sent, tokens = [], set()
    for payload in payloads:
        # The stand-in routes by channel; the payload goes as it is, whatever it holds.
        token = payload.get("token") if isinstance(payload, dict) else None
        if isinstance(token, str) and token in tokens:  # the stand-in tells answers by token
            token = payload["token"] = f"fuzz{snowflake()}"
        token = token if isinstance(token, str) else f"fuzz{snowflake()}"
        tokens.add(token)
        inter = Interaction(snowflake(), token, "fuzz", channel, players[0], payload)
        sent.append(await rig.standin.dispatch(inter))
        await asyncio.sleep(0.005)
    await asyncio.sleep(2.5)  # every deadline has passed

    assert rig.bot is not None and rig.bot.alive, rig.tail()
    log = rig.log.read_text()
    dropped = log.count("dropped a malformed INTERACTION_CREATE")
    answered = sum(inter.done is not None and inter.done.done() for inter in sent)
    named = set(DROPPED.findall(log))
    unanswered = [i.payload for i in sent if i.done is None or not i.done.done()]
    lost = [p for p in unanswered if isinstance(p, dict) and str(p.get("id")).isdigit()]
    assert all(p["id"] in named for p in lost), [p["id"] for p in lost]
    assert answered + dropped == len(payloads), (answered, dropped, log[-3000:])
    # The table plays on, answered in time, and the process takes new interactions.
    figures = Figures("after fuzzing")
    await rig.played(table)
    await rig.send(rig.standin.slash(channel, players[1], "table"), figures)
    assert figures.in_time == figures.sent == 1
    print(
        f"\n{len(payloads)} payloads sent: {answered} answered, {dropped} dropped with a line;"
        " the process and the table play on"
    )
    assert dropped > 0, log[-3000:]
    assert "Traceback" not in log, log[-5000:]


async def test_sigterm_while_the_gateway_is_gone_stops_in_time(rig: Rig) -> None:
    await rig.start()
    await rig.standin.stop()  # connection refused from now on: discord.py retries
    # Its pauses between attempts double: wait for one longer than the stop timeout.
    deadline = time.monotonic() + 120
    while max(map(float, RETRY.findall(rig.log.read_text())), default=0.0) < STOP_TIMEOUT:
        assert time.monotonic() < deadline, rig.tail()
        await asyncio.sleep(0.2)
    assert rig.bot is not None and rig.bot.alive
    started = time.monotonic()
    code = await rig.bot.stop(timeout=STOP_TIMEOUT + 5)
    took = time.monotonic() - started
    print(f"\nSIGTERM while reconnecting: exit {code} after {took:.1f} s")
    assert code == 0 and took < STOP_TIMEOUT, rig.tail()
    log = rig.log.read_text()
    assert "Traceback" not in log, log[-3000:]
