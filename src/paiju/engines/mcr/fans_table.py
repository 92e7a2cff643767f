"""The MCR fan table (番种表): ids 1-81 in the order of rules/mcr.md, plus the optional 82nd.

Each entry is (english_name, points, chinese_name); the english names are the ones the judge
prints. Fan ids index a per-hand count table (a list of ints, one slot per id).
"""

from __future__ import annotations

from itertools import compress

BIG_FOUR_WINDS = 1
BIG_THREE_DRAGONS = 2
ALL_GREEN = 3
NINE_GATES = 4
FOUR_KONGS = 5
SEVEN_SHIFTED_PAIRS = 6
THIRTEEN_ORPHANS = 7
ALL_TERMINALS = 8
LITTLE_FOUR_WINDS = 9
LITTLE_THREE_DRAGONS = 10
ALL_HONORS = 11
FOUR_CONCEALED_PUNGS = 12
PURE_TERMINAL_CHOWS = 13
QUADRUPLE_CHOW = 14
FOUR_PURE_SHIFTED_PUNGS = 15
FOUR_PURE_SHIFTED_CHOWS = 16
THREE_KONGS = 17
ALL_TERMINALS_AND_HONORS = 18
SEVEN_PAIRS = 19
GREATER_HONORS_AND_KNITTED_TILES = 20
ALL_EVEN_PUNGS = 21
FULL_FLUSH = 22
PURE_TRIPLE_CHOW = 23
PURE_SHIFTED_PUNGS = 24
UPPER_TILES = 25
MIDDLE_TILES = 26
LOWER_TILES = 27
PURE_STRAIGHT = 28
THREE_SUITED_TERMINAL_CHOWS = 29
PURE_SHIFTED_CHOWS = 30
ALL_FIVE = 31
TRIPLE_PUNG = 32
THREE_CONCEALED_PUNGS = 33
LESSER_HONORS_AND_KNITTED_TILES = 34
KNITTED_STRAIGHT = 35
UPPER_FOUR = 36
LOWER_FOUR = 37
BIG_THREE_WINDS = 38
MIXED_STRAIGHT = 39
REVERSIBLE_TILES = 40
MIXED_TRIPLE_CHOW = 41
MIXED_SHIFTED_PUNGS = 42
CHICKEN_HAND = 43
LAST_TILE_DRAW = 44
LAST_TILE_CLAIM = 45
OUT_WITH_REPLACEMENT_TILE = 46
ROBBING_THE_KONG = 47
ALL_PUNGS = 48
HALF_FLUSH = 49
MIXED_SHIFTED_CHOWS = 50
ALL_TYPES = 51
MELDED_HAND = 52
TWO_CONCEALED_KONGS = 53
TWO_DRAGONS_PUNGS = 54
OUTSIDE_HAND = 55
FULLY_CONCEALED_HAND = 56
TWO_MELDED_KONGS = 57
LAST_TILE = 58
DRAGON_PUNG = 59
PREVALENT_WIND = 60
SEAT_WIND = 61
CONCEALED_HAND = 62
ALL_CHOWS = 63
TILE_HOG = 64
DOUBLE_PUNG = 65
TWO_CONCEALED_PUNGS = 66
CONCEALED_KONG = 67
ALL_SIMPLES = 68
PURE_DOUBLE_CHOW = 69
MIXED_DOUBLE_CHOW = 70
SHORT_STRAIGHT = 71
TWO_TERMINAL_CHOWS = 72
PUNG_OF_TERMINALS_OR_HONORS = 73
MELDED_KONG = 74
ONE_VOIDED_SUIT = 75
NO_HONORS = 76
EDGE_WAIT = 77
CLOSED_WAIT = 78
SINGLE_WAIT = 79
SELF_DRAWN = 80
FLOWER_TILES = 81
CONCEALED_KONG_AND_MELDED_KONG = 82

NUM_FANS = 83
"""Size of a count table: slot 0 unused, 1-81 the fans, 82 the optional 明暗杠."""


FAN_TABLE: tuple[tuple[str, int, str], ...] = (
    ("", 0, ""),
    ("Big Four Winds", 88, "大四喜"),  # 1
    ("Big Three Dragons", 88, "大三元"),  # 2
    ("All Green", 88, "绿一色"),  # 3
    ("Nine Gates", 88, "九莲宝灯"),  # 4
    ("Four Kongs", 88, "四杠"),  # 5
    ("Seven Shifted Pairs", 88, "连七对"),  # 6
    ("Thirteen Orphans", 88, "十三幺"),  # 7
    ("All Terminals", 64, "清幺九"),  # 8
    ("Little Four Winds", 64, "小四喜"),  # 9
    ("Little Three Dragons", 64, "小三元"),  # 10
    ("All Honors", 64, "字一色"),  # 11
    ("Four Concealed Pungs", 64, "四暗刻"),  # 12
    ("Pure Terminal Chows", 64, "一色双龙会"),  # 13
    ("Quadruple Chow", 48, "一色四同顺"),  # 14
    ("Four Pure Shifted Pungs", 48, "一色四节高"),  # 15
    ("Four Pure Shifted Chows", 32, "一色四步高"),  # 16
    ("Three Kongs", 32, "三杠"),  # 17
    ("All Terminals and Honors", 32, "混幺九"),  # 18
    ("Seven Pairs", 24, "七对"),  # 19
    ("Greater Honors and Knitted Tiles", 24, "七星不靠"),  # 20
    ("All Even Pungs", 24, "全双刻"),  # 21
    ("Full Flush", 24, "清一色"),  # 22
    ("Pure Triple Chow", 24, "一色三同顺"),  # 23
    ("Pure Shifted Pungs", 24, "一色三节高"),  # 24
    ("Upper Tiles", 24, "全大"),  # 25
    ("Middle Tiles", 24, "全中"),  # 26
    ("Lower Tiles", 24, "全小"),  # 27
    ("Pure Straight", 16, "清龙"),  # 28
    ("Three-Suited Terminal Chows", 16, "三色双龙会"),  # 29
    ("Pure Shifted Chows", 16, "一色三步高"),  # 30
    ("All Five", 16, "全带五"),  # 31
    ("Triple Pung", 16, "三同刻"),  # 32
    ("Three Concealed Pungs", 16, "三暗刻"),  # 33
    ("Lesser Honors and Knitted Tiles", 12, "全不靠"),  # 34
    ("Knitted Straight", 12, "组合龙"),  # 35
    ("Upper Four", 12, "大于五"),  # 36
    ("Lower Four", 12, "小于五"),  # 37
    ("Big Three Winds", 12, "三风刻"),  # 38
    ("Mixed Straight", 8, "花龙"),  # 39
    ("Reversible Tiles", 8, "推不倒"),  # 40
    ("Mixed Triple Chow", 8, "三色三同顺"),  # 41
    ("Mixed Shifted Pungs", 8, "三色三节高"),  # 42
    ("Chicken Hand", 8, "无番和"),  # 43
    ("Last Tile Draw", 8, "妙手回春"),  # 44
    ("Last Tile Claim", 8, "海底捞月"),  # 45
    ("Out with Replacement Tile", 8, "杠上开花"),  # 46
    ("Robbing The Kong", 8, "抢杠和"),  # 47
    ("All Pungs", 6, "碰碰和"),  # 48
    ("Half Flush", 6, "混一色"),  # 49
    ("Mixed Shifted Chows", 6, "三色三步高"),  # 50
    ("All Types", 6, "五门齐"),  # 51
    ("Melded Hand", 6, "全求人"),  # 52
    ("Two Concealed Kongs", 6, "双暗杠"),  # 53
    ("Two Dragons Pungs", 6, "双箭刻"),  # 54
    ("Outside Hand", 4, "全带幺"),  # 55
    ("Fully Concealed Hand", 4, "不求人"),  # 56
    ("Two Melded Kongs", 4, "双明杠"),  # 57
    ("Last Tile", 4, "和绝张"),  # 58
    ("Dragon Pung", 2, "箭刻"),  # 59
    ("Prevalent Wind", 2, "圈风刻"),  # 60
    ("Seat Wind", 2, "门风刻"),  # 61
    ("Concealed Hand", 2, "门前清"),  # 62
    ("All Chows", 2, "平和"),  # 63
    ("Tile Hog", 2, "四归一"),  # 64
    ("Double Pung", 2, "双同刻"),  # 65
    ("Two Concealed Pungs", 2, "双暗刻"),  # 66
    ("Concealed Kong", 2, "暗杠"),  # 67
    ("All Simples", 2, "断幺"),  # 68
    ("Pure Double Chow", 1, "一般高"),  # 69
    ("Mixed Double Chow", 1, "喜相逢"),  # 70
    ("Short Straight", 1, "连六"),  # 71
    ("Two Terminal Chows", 1, "老少副"),  # 72
    ("Pung of Terminals or Honors", 1, "幺九刻"),  # 73
    ("Melded Kong", 1, "明杠"),  # 74
    ("One Voided Suit", 1, "缺一门"),  # 75
    ("No Honors", 1, "无字"),  # 76
    ("Edge Wait", 1, "独听・边张"),  # 77
    ("Closed Wait", 1, "独听・嵌张"),  # 78
    ("Single Wait", 1, "独听・单钓"),  # 79
    ("Self-Drawn", 1, "自摸"),  # 80
    ("Flower Tiles", 1, "花牌"),  # 81
    ("Concealed Kong and Melded Kong", 5, "明暗杠"),  # 82
)


def new_table() -> list[int]:
    """An all-zero fan count table."""
    return [0] * NUM_FANS


POINTS: tuple[int, ...] = tuple(entry[1] for entry in FAN_TABLE)
NAMES: tuple[str, ...] = tuple(entry[0] for entry in FAN_TABLE)
IDS: tuple[int, ...] = tuple(range(NUM_FANS))
TILE_IDS: tuple[int, ...] = tuple(range(34))


def table_points(table: list[int]) -> int:
    """Sum of points of a count table."""
    # a hand has a handful of fans: multiply only those (compress skips the zeros in C)
    return sum([POINTS[i] * table[i] for i in compress(IDS, table)])
