"""The arena's figures: per player and per pair, with 95% intervals and p-values.

Every figure is first averaged per board (over the player's seat-hands on that board: one
per rotation and copy), and the intervals are taken over boards, because the hands of one
board share its cards and are not independent. A pairwise difference is paired by board:
``d_b = mean_A(b) - mean_B(b)``; its p-value is two-sided, from the normal approximation
of the mean of the ``d_b`` (boards are many).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from paiju.bots.arena import ArenaResult, PlayerStats
from paiju.bots.selfplay import Z95, Sample


def board_means(samples: dict[int, Sample]) -> Sample:
    """The per-board means as one sample (over boards)."""
    out = Sample()
    for board in sorted(samples):
        out.add(samples[board].mean)
    return out


@dataclass(frozen=True)
class Contrast:
    """Player ``a`` minus player ``b``, paired by board."""

    a: str
    b: str
    diff: float
    half: float  # half-width of the 95% interval
    z: float
    p: float
    boards: int


def contrast(a: str, b: str, sa: PlayerStats, sb: PlayerStats) -> Contrast:
    diffs = Sample()
    for board in sorted(set(sa.score) & set(sb.score)):
        diffs.add(sa.score[board].mean - sb.score[board].mean)
    se = diffs.stderr
    z = diffs.mean / se if se > 0 else (math.inf if diffs.mean else 0.0)
    p = math.erfc(abs(z) / math.sqrt(2)) if math.isfinite(z) else 0.0
    return Contrast(a, b, diffs.mean, Z95 * se, z, p, diffs.n)


def contrasts(result: ArenaResult) -> list[Contrast]:
    """Every pair of players, the better-scoring one first."""
    labels = sorted(result.players, key=lambda k: -board_means(result.players[k].score).mean)
    return [
        contrast(a, b, result.players[a], result.players[b])
        for i, a in enumerate(labels)
        for b in labels[i + 1 :]
    ]


def interval(sample: Sample, scale: float = 1.0, digits: int = 2) -> str:
    return f"{sample.mean * scale:+.{digits}f} ± {Z95 * sample.stderr * scale:.{digits}f}"


def rate(sample: Sample) -> str:
    return f"{100 * sample.mean:.1f}% ± {100 * Z95 * sample.stderr:.1f}"


def figure(stats: PlayerStats, key: str) -> str:
    """A ``hand_stats`` figure: a rate when every value was 0 or 1 (win, deal-in), else its
    mean per hand (points taken)."""
    if key not in stats.extra:
        return "-"
    if key in stats.counted:
        return interval(board_means(stats.extra[key]), digits=1)
    return rate(board_means(stats.extra[key]))


def p_text(p: float) -> str:
    return "< 1e-6" if p < 1e-6 else f"{p:.2g}"


def tables(result: ArenaResult) -> tuple[list[str], list[list[str]], list[list[str]]]:
    """The player table's header and rows, and the pairwise rows (plain strings)."""
    keys = sorted({k for st in result.players.values() for k in st.extra})
    header = ["player", "score/hand (95% CI)", *keys,
              "ms/decision (mean, p99, max)", "failures"]
    rows = []
    for label, st in sorted(result.players.items(), key=lambda kv: -board_means(kv[1].score).mean):
        extras = [figure(st, k) for k in keys]
        mean, p99, most = st.think_ms()
        think = f"{mean:.2f}, {p99:.1f}, {most:.0f}"
        rows.append([label, interval(board_means(st.score)), *extras, think, str(st.failures)])
    pairs = [
        [f"{c.a} - {c.b}", f"{c.diff:+.2f} ± {c.half:.2f}", f"{c.z:.2f}", p_text(c.p)]
        for c in contrasts(result)
    ]
    return header, rows, pairs


def plain(result: ArenaResult) -> str:
    """The report as plain text (Markdown tables), for logs and docs."""
    header, rows, pairs = tables(result)
    kind = "duplicate boards" if result.duplicate else "boards"
    lines = [f"{result.variant}: {result.boards} {kind}, {result.hands} hands", ""]
    lines += _markdown(header, rows)
    lines += ["", *_markdown(["pair (paired by board)", "difference/hand", "z", "p"], pairs)]
    return "\n".join(lines)


def _markdown(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out
