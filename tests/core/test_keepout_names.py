"""Keep-out marks' bookmark names (pure)."""

from marginalia.document import keepout_names as kn


def test_member_bookmarks_group_into_one_mark_in_their_order():
    names = ["_GoBack", "MarginaliaKeepOut2_10", "MarginaliaKeepOut2_2", "MarginaliaKeepOut2_1",
             "Other", "MarginaliaKeepOut1"]
    assert kn.group(names) == [
        ("MarginaliaKeepOut1", ["MarginaliaKeepOut1"]),          # an earlier version's mark
        ("MarginaliaKeepOut2", ["MarginaliaKeepOut2_1", "MarginaliaKeepOut2_2",
                                "MarginaliaKeepOut2_10"])]


def test_a_pasted_copy_is_a_mark_of_its_own_and_other_names_are_not_marks():
    assert kn.parse("MarginaliaKeepOut3_2 Copy 1") == (3, 2)
    # A kept-out paragraph copied to the end of the document: kept out too, but not
    # joined to its original (that would keep out everything between them).
    assert kn.group(["MarginaliaKeepOut3_1", "MarginaliaKeepOut3_2",
                     "MarginaliaKeepOut3_2 Copy 1"]) == [
        ("MarginaliaKeepOut3", ["MarginaliaKeepOut3_1", "MarginaliaKeepOut3_2"]),
        ("MarginaliaKeepOut3 Copy 1", ["MarginaliaKeepOut3_2 Copy 1"])]
    assert kn.parse("MarginaliaKeepOut12") == (12, 0)
    assert kn.parse("MarginaliaKeepOutX") == (0, 0)
    assert kn.parse("MyMarginaliaKeepOut1") == (0, 0)
    assert kn.group(["MarginaliaKeepOut", "KeepOut1_1"]) == []


def test_a_new_mark_takes_the_lowest_free_number_and_names_fit_word():
    assert kn.next_stem([]) == "MarginaliaKeepOut1"
    assert kn.next_stem(["MarginaliaKeepOut1", "MarginaliaKeepOut2_1",
                         "MarginaliaKeepOut2_2", "MarginaliaKeepOut4_1"]) == "MarginaliaKeepOut3"
    name = kn.member(kn.stem(999), 9999)
    # Word: letters, digits and underscores, at most 40 characters.
    assert name == "MarginaliaKeepOut999_9999" and len(name) <= 40
    assert name.replace("_", "").isalnum()
