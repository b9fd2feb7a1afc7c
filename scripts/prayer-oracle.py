#!/usr/bin/env python3
"""Reference prayer times for the oracle test (Tests/NudgeCoreTests/Prayer/PrayerOracleTests.swift).

Reads a request (JSON, on stdin): places [[name, latitude, longitude]], UT dates ["YYYY-MM-DD"], methods
{name: {"fajr": angle, "isha": angle | "ishaMinutes": minutes, "maghrib": angle}} and high-latitude rules.
Prints one JSON object with, per place and date:

- "adhan": adhanpy's PrayerTimes (a port of the Adhan library) with its per-method minute adjustments set to
  zero: sunrise, dhuhr, maghrib (sunset), asr [standard, hanafi], and per method and rule [fajr, isha, maghrib]
  as UTC seconds (adhanpy's rounding to the minute), null where adhanpy has no time (no sunrise or sunset).
  adhanpy has no maghrib angle (Tehran, Jafari): that maghrib is its SolarTime's time at the angle, bounded by
  sunset + portion x night like fajr and isha (docs/prayer-times.md), with adhanpy's own sunset and night.
- "ephem": PyEphem (a full ephemeris; the sun's centre, no refraction beyond the -0.833 deg horizon): sunrise,
  transit, sunset, the 18 deg dawn and 17 deg dusk, asr [standard, hanafi], unrounded UTC seconds, null where
  the sun does not get there.

Only the solar coordinates adhanpy computes for a date and place are cached between its calls (the methods and
rules of one day share them); its prayer rules run unchanged.
"""
import functools
import json
import math
import sys
from datetime import datetime, timezone

import ephem
import adhanpy.PrayerTimes as adhan_module
from adhanpy.PrayerTimes import PrayerTimes
from adhanpy.astronomy.SolarTime import SolarTime
from adhanpy.calculation.CalculationMethod import CalculationMethod
from adhanpy.calculation.CalculationParameters import CalculationParameters
from adhanpy.calculation.HighLatitudeRule import HighLatitudeRule
from adhanpy.calculation.Madhab import Madhab
from adhanpy.calculation.PrayerAdjustments import PrayerAdjustments

RULES = {"angleBased": HighLatitudeRule.TWILIGHT_ANGLE, "middleOfNight": HighLatitudeRule.MIDDLE_OF_THE_NIGHT,
         "seventhOfNight": HighLatitudeRule.SEVENTH_OF_THE_NIGHT}


@functools.lru_cache(maxsize=64)
def solar_time(year, month, day, latitude, longitude):
    class Date:
        pass
    date = Date()
    date.year, date.month, date.day = year, month, day
    class Place:
        pass
    place = Place()
    place.latitude, place.longitude = latitude, longitude
    return SolarTime(date, place)


class CachedSolarTime:
    """Stands in for SolarTime inside adhanpy.PrayerTimes: the same object for the same date and place."""
    def __new__(cls, date_components, coordinates):
        return solar_time(date_components.year, date_components.month, date_components.day,
                          coordinates.latitude, coordinates.longitude)


adhan_module.SolarTime = CachedSolarTime


def seconds(value):
    return None if value is None else value.timestamp()


def adhan(latitude, longitude, date, method, rule, madhab=Madhab.SHAFI):
    parameters = CalculationParameters(fajr_angle=method["fajr"], isha_angle=method.get("isha", 0.0),
                                       isha_interval=method.get("ishaMinutes", 0))
    parameters.method_adjustments = PrayerAdjustments()
    parameters.high_latitude_rule = RULES[rule]
    parameters.madhab = madhab
    try:
        return PrayerTimes((latitude, longitude), date, calculation_parameters=parameters)
    except (RuntimeError, ValueError):
        return None


def maghrib_at_angle(times, latitude, longitude, date, angle, rule):
    """Tehran and Jafari: adhanpy's time at the angle, bounded like isha (not rounded by adhanpy: rounded here)."""
    solar = solar_time(date.year, date.month, date.day, latitude, longitude)
    hours = solar.hour_angle(-angle, True)
    sunset = times._sunset_components.timestamp()
    portion = {"angleBased": angle / 60, "middleOfNight": 0.5, "seventhOfNight": 1 / 7}[rule]
    bound = sunset + int(portion * times.night_length / 1000)
    exact = bound if math.isnan(hours) else date.timestamp() + hours * 3600
    return round(min(exact, bound) / 60) * 60


def ephem_day(observer, transit_guess):
    sun = ephem.Sun()
    result = {}
    observer.date = ephem.Date(datetime.fromtimestamp(transit_guess - 43200, timezone.utc).replace(tzinfo=None))
    transit = observer.next_transit(sun)
    result["transit"] = ephem.Date(transit).datetime().replace(tzinfo=timezone.utc).timestamp()

    def event(horizon, rising):
        observer.date = transit
        observer.horizon = horizon
        try:
            found = observer.previous_rising(sun, use_center=True) if rising else observer.next_setting(
                sun, use_center=True)
        except (ephem.AlwaysUpError, ephem.NeverUpError):
            return None
        return ephem.Date(found).datetime().replace(tzinfo=timezone.utc).timestamp()

    result["sunrise"] = event("-0:50", True)
    result["sunset"] = event("-0:50", False)
    result["fajr18"] = event("-18", True)
    result["isha17"] = event("-17", False)
    observer.date = transit
    sun.compute(observer)
    declination = math.degrees(sun.dec)
    latitude = math.degrees(observer.lat)
    result["asr"] = []
    for shadow in (1, 2):
        altitude = math.degrees(math.atan(1 / (shadow + math.tan(math.radians(abs(latitude - declination))))))
        result["asr"].append(event(str(altitude), False))
    return result


def main():
    request = json.load(sys.stdin)
    rules = request["rules"]
    methods = request["methods"]
    rows = []
    for place_index, (_, latitude, longitude) in enumerate(request["places"]):
        observer = ephem.Observer()
        observer.lat, observer.lon = str(latitude), str(longitude)
        observer.pressure = 0
        observer.elevation = 0
        for date_index, text in enumerate(request["dates"]):
            date = datetime(int(text[:4]), int(text[5:7]), int(text[8:10]), tzinfo=timezone.utc)
            base = adhan(latitude, longitude, date, methods["MWL"], "angleBased")
            hanafi = adhan(latitude, longitude, date, methods["MWL"], "angleBased", Madhab.HANAFI)
            row = {"p": place_index, "d": date_index}
            if base is not None:
                row["sunrise"], row["dhuhr"] = seconds(base.sunrise), seconds(base.dhuhr)
                row["maghrib"] = seconds(base.maghrib)
                row["asr"] = [seconds(base.asr), seconds(hanafi.asr) if hanafi else None]
                per_method = {}
                for name, method in methods.items():
                    per_rule = {}
                    for rule in rules:
                        times = adhan(latitude, longitude, date, method, rule)
                        if times is None:
                            continue
                        maghrib = seconds(times.maghrib)
                        if "maghrib" in method:
                            maghrib = maghrib_at_angle(times, latitude, longitude, date, method["maghrib"], rule)
                        per_rule[rule] = [seconds(times.fajr), seconds(times.isha), maghrib]
                    per_method[name] = per_rule
                row["methods"] = per_method
            solar = solar_time(date.year, date.month, date.day, latitude, longitude)
            row["ephem"] = ephem_day(observer, date.timestamp() + solar.transit * 3600)
            rows.append(row)
    sys.stdout.write(json.dumps({"rows": rows}, separators=(",", ":")))


if __name__ == "__main__":
    main()
