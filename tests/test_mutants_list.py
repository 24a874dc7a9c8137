"""The mutation check's list follows the code: each mutation's text stands exactly once in
its file, so ``make mutants`` applies every one (a text the code no longer has is
reported "gone" there, minutes later)."""

import os

import pytest

from tools import mutants


@pytest.mark.parametrize("mutant", mutants.MUTANTS, ids=[m[0] for m in mutants.MUTANTS])
def test_each_mutation_finds_its_text_once(mutant):
    name, path, text, replacement, tests = mutant
    with open(os.path.join(mutants.ROOT, path)) as handle:
        assert handle.read().count(text) == 1, name
    assert replacement != text
    for test in tests:
        if isinstance(test, str):
            assert os.path.isfile(os.path.join(mutants.ROOT, test)), test
