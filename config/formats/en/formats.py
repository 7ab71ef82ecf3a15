"""English pages write dates and times the British and international way: "28/11/2026", "28 Nov 2026",
"13:29" (a 24-hour clock, as the German pages and a tournament's timetable do). Django's "en" would
write the American "11/28/2026" and "1:29 p.m." to a reader in Britain, Ireland or anywhere else in
Europe; the site offers one English, and the players of a German club evening read a 24-hour clock.
Numbers stay English ("2.5", "1,000"). docs/accessibility.md, "Languages"."""

DATE_FORMAT = "j M Y"  # 28 Nov 2026
TIME_FORMAT = "H:i"  # 13:29
DATETIME_FORMAT = "j M Y, H:i"  # 28 Nov 2026, 13:29
YEAR_MONTH_FORMAT = "F Y"  # November 2026
MONTH_DAY_FORMAT = "j F"  # 28 November
SHORT_DATE_FORMAT = "d/m/Y"  # 28/11/2026
SHORT_DATETIME_FORMAT = "d/m/Y H:i"  # 28/11/2026 13:29
FIRST_DAY_OF_WEEK = 1  # Monday

DATE_INPUT_FORMATS = [
    "%Y-%m-%d",  # 2026-11-28 (what a date field of the browser sends)
    "%d/%m/%Y",  # 28/11/2026
    "%d/%m/%y",  # 28/11/26
    "%d.%m.%Y",  # 28.11.2026
]
TIME_INPUT_FORMATS = ["%H:%M:%S", "%H:%M:%S.%f", "%H:%M"]
DATETIME_INPUT_FORMATS = [
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M",
]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
