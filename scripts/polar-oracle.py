#!/usr/bin/env python3
"""An independent implementation of prayerTimes.polar, for Tests/NudgeCoreTests/Prayer/PolarOracleTests.swift.

Written from the rule in docs/prayer-times.md, on PyEphem's ephemeris (nudge uses Meeus' formulas), with the MWL
method (fajr 18 deg, isha 17 deg), the standard asr and the angleBased high-latitude bound:

- A solar day is named by the UT date of its solar noon. Sunrise and sunset are the sun's centre at -0.833 deg,
  dhuhr the transit, asr when the shadow is the noon shadow plus the object's length (none while the sun stays
  below the horizon at noon), fajr and isha at 18 and 17 deg below: each at its hour angle from the transit with
  the declination at 0h UT of the date, so that whether the sun reaches an altitude on a day is decided as
  nudge's manual says, on the ephemeris' declination; the time is then the ephemeris' own crossing.
  Fajr is never earlier than sunrise - (18/60) x night and isha never later than sunset + (17/60) x night,
  where the night runs from this sunset to the next day's sunrise (when both, and this sunrise, exist).
- polar: the times a day lacks are taken together from the first candidate at which all of them exist, else each
  from the first candidate at which it exists: "nearestLatitude", the latitudes 0.5, 1, 1.5 ... deg nearer the
  equator (down to 0); "nearestDay", the dates 1, 2 ... 183 days away, the earlier first; a number, that latitude
  on the place's side. A time from another date keeps its UT time of day.

Request (stdin, JSON): {"places": [[name, latitude, longitude]], "dates": ["YYYY-MM-DD"], "polar": [...]}.
Prints {"rows": [{"p": place, "o": option index, "d": date, "times": {prayer: [seconds, source, rate] | null}}]}
with only the dates that lack a time of their own; source is {"latitude": x} or {"date": "YYYY-MM-DD"}, rate how
fast the sun's altitude changes then (degrees a minute).
"""
import functools
import json
import math
import sys
from datetime import date as Date, datetime, timedelta, timezone

import ephem

PRAYERS = ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"]
FAJR, ISHA = 18.0, 17.0


def utc_seconds(value):
    return ephem.Date(value).datetime().replace(tzinfo=timezone.utc).timestamp()


@functools.lru_cache(maxsize=None)
def events(latitude, longitude, day):
    """The sun's events of the solar day whose noon falls on the UT date `day` (a date ordinal): the transit
    from the ephemeris, and each altitude h at the hour angle H of cos H = (sin h - sin phi sin delta) /
    (cos phi cos delta) from it, with the declination delta at 0h UT of the date (none where |cos H| > 1)."""
    observer = ephem.Observer()
    observer.lat, observer.lon = str(latitude), str(longitude)
    observer.pressure = 0
    observer.elevation = 0
    sun = ephem.Sun()
    midnight = ephem.Date(datetime.combine(Date.fromordinal(day), datetime.min.time()))
    observer.date = midnight
    sun.compute(observer)
    declination = float(sun.dec)
    transit = observer.next_transit(sun)
    noon = utc_seconds(transit)
    phi = math.radians(latitude)

    def crossing(altitude, rising):
        cosine = (math.sin(math.radians(altitude)) - math.sin(phi) * math.sin(declination)) / (
            math.cos(phi) * math.cos(declination))
        if abs(cosine) > 1:
            return None
        hours = math.degrees(math.acos(cosine)) / 15
        estimate = noon + (-hours if rising else hours) * 3600
        # The time itself from the ephemeris: the crossing nearest the estimate, if it finds one near it.
        observer.date = transit
        observer.horizon = str(altitude)
        try:
            found = utc_seconds(observer.previous_rising(sun, use_center=True) if rising else
                                observer.next_setting(sun, use_center=True))
        except (ephem.AlwaysUpError, ephem.NeverUpError):
            return estimate
        return found if abs(found - estimate) < 3600 else estimate

    result = {"transit": noon, "sunrise": crossing(-50 / 60, True), "sunset": crossing(-50 / 60, False),
              "dawn": crossing(-FAJR, True), "dusk": crossing(-ISHA, False), "asr": None}
    zenith = abs(latitude - math.degrees(declination))
    if 90 - zenith > 0:
        result["asr"] = crossing(math.degrees(math.atan(1 / (1 + math.tan(math.radians(zenith))))), False)
    return result


@functools.lru_cache(maxsize=None)
def own_times(latitude, longitude, day):
    """The six times of a solar day at a place, unresolved: seconds or None."""
    today = events(latitude, longitude, day)
    times = {"sunrise": today["sunrise"], "dhuhr": today["transit"], "asr": today["asr"],
             "maghrib": today["sunset"]}
    next_sunrise = events(latitude, longitude, day + 1)["sunrise"]
    night = None
    if today["sunset"] is not None and next_sunrise is not None and today["sunrise"] is not None:
        night = next_sunrise - today["sunset"]
    fajr, isha = today["dawn"], today["dusk"]
    if night is not None:
        bound = today["sunrise"] - FAJR / 60 * night
        fajr = bound if fajr is None else max(fajr, bound)
        bound = today["sunset"] + ISHA / 60 * night
        isha = bound if isha is None else min(isha, bound)
    times["fajr"], times["isha"] = fajr, isha
    return times


def altitude_rate(latitude, longitude, seconds):
    """How fast the sun's altitude changes at an instant, degrees a minute: near 0 where it grazes an altitude
    (a sunset at the edge of the midnight sun, asr on the last day with a noon sun), whose time is then
    ill-conditioned (a hundredth of a degree moves it by minutes)."""
    observer = ephem.Observer()
    observer.lat, observer.lon = str(latitude), str(longitude)
    observer.pressure = 0
    sun = ephem.Sun()
    altitudes = []
    for offset in (-300, 300):
        observer.date = ephem.Date(datetime.fromtimestamp(seconds + offset, timezone.utc).replace(tzinfo=None))
        sun.compute(observer)
        altitudes.append(math.degrees(sun.alt))
    return abs(altitudes[1] - altitudes[0]) / 10


def candidates(option, latitude, day):
    side = -1 if latitude < 0 else 1
    if option == "nearestLatitude":
        steps = math.ceil(abs(latitude) / 0.5)
        return [("latitude", side * max(abs(latitude) - k * 0.5, 0.0), day) for k in range(1, steps + 1)]
    if option == "nearestDay":
        return [("date", latitude, day + sign * k) for k in range(1, 184) for sign in (-1, 1)]
    return [("latitude", side * float(option), day)]


def resolve(option, latitude, longitude, day):
    own = own_times(latitude, longitude, day)
    missing = [p for p in PRAYERS if own[p] is None]
    if not missing:
        return None
    result = {}
    for prayer in missing:
        found = None
        for needed in ([missing, [prayer]] if missing != [prayer] else [missing]):
            for kind, other_latitude, other_day in candidates(option, latitude, day):
                times = own_times(round(other_latitude, 6), longitude, other_day)
                if all(times[p] is not None for p in needed):
                    source = {"latitude": other_latitude} if kind == "latitude" else \
                        {"date": Date.fromordinal(other_day).isoformat()}
                    found = [times[prayer] - (other_day - day) * 86400, source,
                             altitude_rate(other_latitude, longitude, times[prayer])]
                    break
            if found:
                break
        result[prayer] = found
    return result


def main():
    request = json.load(sys.stdin)
    rows = []
    for place_index, (_, latitude, longitude) in enumerate(request["places"]):
        for option_index, option in enumerate(request["polar"]):
            for text in request["dates"]:
                day = Date.fromisoformat(text).toordinal()
                times = resolve(option, latitude, longitude, day)
                if times is not None:
                    rows.append({"p": place_index, "o": option_index, "d": text, "times": times})
    sys.stdout.write(json.dumps({"rows": rows}, separators=(",", ":")))


if __name__ == "__main__":
    main()
