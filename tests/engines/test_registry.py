"""The registry reads variants from the ``paiju.variants`` entry points: the built-in four
are registered exactly as a third-party package would be, and what cannot be used is
reported with a typed error that says why (never a traceback)."""

from __future__ import annotations

import io
from importlib.metadata import entry_points

import pytest

from paiju.cli.__main__ import run_judge
from paiju.core.errors import InvalidOptions, NotProvided, UnknownVariant, VariantUnavailable
from paiju.core.rng import SeededRng
from paiju.engines.bot import RandomBot
from paiju.engines.registry import GROUP, get_engine, get_variant, make_bot, variants
from paiju.engines.variant import Variant
from tests.conftest import RegisterVariant

BUILT_IN = ("diu", "dragon", "mcr", "shengji")


def test_the_built_in_variants_are_entry_points_like_any_other() -> None:
    assert variants() == BUILT_IN
    points = {p.name: p.value for p in entry_points(group=GROUP)}
    for name in BUILT_IN:
        assert points[name] == f"paiju.engines.{name}.variant:VARIANT"
        variant = get_variant(name)
        assert isinstance(variant, Variant) and variant.name == name
        assert get_engine(name).name == name
        assert get_engine(name) is not get_engine(name), "every room gets its own engine"


def test_an_unknown_variant_names_the_known_ones() -> None:
    with pytest.raises(UnknownVariant) as info:
        get_variant("nosuchgame")
    assert "nosuchgame" in info.value.message and "mcr" in info.value.message


def test_a_module_that_fails_to_import_is_reported_with_why(
    register_variant: RegisterVariant,
) -> None:
    register_variant("broken", "tests.fixtures.broken_variant:VARIANT")
    assert "broken" in variants()  # listed: nothing is imported to list names
    with pytest.raises(VariantUnavailable) as info:
        get_engine("broken")
    message = info.value.message
    assert "tests.fixtures.broken_variant:VARIANT" in message and GROUP in message
    assert "ModuleNotFoundError" in message and "paiju_tiles_that_are_not_installed" in message
    assert info.value.code == "variant_unavailable"
    assert get_engine("mcr").name == "mcr", "the other variants keep working"


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("tests.fixtures.odd_variants:NOT_A_VARIANT", "names a dict, not a Variant"),
        ("tests.fixtures.odd_variants:MISNAMED", "calls itself 'sprint'"),
        ("tests.fixtures.odd_variants:NO_SUCH_NAME", "AttributeError"),
    ],
)
def test_an_entry_point_that_names_no_variant_of_its_name_is_refused(
    register_variant: RegisterVariant, target: str, words: str
) -> None:
    register_variant("odd", target)
    with pytest.raises(VariantUnavailable) as info:
        get_variant("odd")
    assert words in info.value.message


def test_two_packages_claiming_one_name_are_refused(
    register_variant: RegisterVariant, monkeypatch: pytest.MonkeyPatch
) -> None:
    from importlib.metadata import EntryPoint

    from paiju.engines import registry

    register_variant("race", "tests.table.fake_engine:VARIANT")
    twice = (
        EntryPoint(name="race", value="tests.table.fake_engine:VARIANT", group=GROUP),
        EntryPoint(name="race", value="elsewhere.race:VARIANT", group=GROUP),
    )
    installed = registry._entry_points()
    monkeypatch.setattr(registry, "_entry_points", lambda: {**installed, "race": twice})
    registry.get_variant.cache_clear()
    with pytest.raises(VariantUnavailable) as info:
        get_variant("race")
    assert "registered twice" in info.value.message


def test_bots_level_zero_for_all_and_missing_levels_said_plainly(race_variant: None) -> None:
    assert isinstance(make_bot("race", 0, SeededRng("b")), RandomBot)
    with pytest.raises(InvalidOptions) as info:
        make_bot("race", 1, SeededRng("b"))
    assert info.value.message == "race has no bot level 1 (levels: 0)"
    with pytest.raises(InvalidOptions):
        make_bot("mcr", 9, SeededRng("b"))
    assert make_bot("mcr", 3, SeededRng("b")) is not None


def test_a_variant_without_a_judge_says_so(race_variant: None) -> None:
    with pytest.raises(NotProvided) as info:
        get_variant("race").answer({"id": 1})
    assert info.value.message == "the variant 'race' provides no judge"


def test_paiju_judge_answers_in_one_line_without_a_traceback(
    register_variant: RegisterVariant, capsys: pytest.CaptureFixture[str]
) -> None:
    register_variant("race", "tests.table.fake_engine:VARIANT")
    register_variant("broken", "tests.fixtures.broken_variant:VARIANT")
    for name, words in [
        ("race", "provides no judge"),
        ("broken", "ModuleNotFoundError"),
        ("nosuchgame", "no variant named 'nosuchgame'"),
    ]:
        assert run_judge(name, io.StringIO('{"id": 1}\n'), io.StringIO()) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err and "Traceback" not in err
