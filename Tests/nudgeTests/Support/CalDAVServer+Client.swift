import Foundation
import XCTest

/// The harness's own client of the server, independent of nudge: a few lines of Debian's python3 with urllib and
/// python3-icalendar that make a calendar (MKCALENDAR), ask whether one exists (PROPFIND), delete an event as the
/// person would (DELETE) and read every event of a collection (PROPFIND Depth 1, then GET of each member), with
/// Basic authentication sent at once (no challenge round) and the harness's User-Agent.
extension CalDAVServer {
    /// One VEVENT as the server holds it.
    struct Event: Decodable, Equatable {
        struct Alarm: Decodable, Equatable {
            let action: String?
            /// The trigger's offset in seconds when it is a duration, nil when it is an absolute time.
            let trigger: Int?
            /// RELATED of the trigger, nil when the trigger does not say (RFC 5545: then START).
            let related: String?
            let description: String?
        }

        /// The member's href, as the server lists it (an absolute path).
        let href: String
        /// The ETag of the GET (the PROPFIND's getetag when the GET has none), quotes included.
        let etag: String?
        let uid: String?
        let summary: String?
        let description: String?
        /// DTSTART in UTC (`2026-11-21T10:45:00Z`) when it has a zone; a floating time or a date as written.
        let start: String?
        /// DURATION, or DTEND minus DTSTART, in minutes.
        let minutes: Double?
        let categories: [String]
        /// DTSTAMP in UTC, nil when missing.
        let stamp: String?
        let alarms: [Alarm]
        /// The whole resource as the GET returned it.
        let ics: String
    }

    static let client = #"""
        import base64, datetime, json, sys, urllib.error, urllib.parse, urllib.request
        import xml.etree.ElementTree as ElementTree

        operation, url, user, password, agent = sys.argv[1:6]
        DAV, CALDAV = "{DAV:}", "{urn:ietf:params:xml:ns:caldav}"
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))   # 127.0.0.1 never through a proxy

        def call(method, target, body=None, headers=None):
            headers = dict(headers or {}, **{"User-Agent": agent})
            if user:
                token = base64.b64encode(("%s:%s" % (user, password)).encode()).decode()
                headers["Authorization"] = "Basic " + token
            request = urllib.request.Request(urllib.parse.urljoin(url, target), data=body, method=method,
                                             headers=headers)
            try:
                with opener.open(request, timeout=20) as response:
                    return response.status, response.headers, response.read()
            except urllib.error.HTTPError as error:
                return error.code, error.headers, error.read()

        def listing(depth):
            body = b'<?xml version="1.0" encoding="utf-8"?><propfind xmlns="DAV:"><prop><resourcetype/><getetag/>' \
                   b'</prop></propfind>'
            status, _, answer = call("PROPFIND", url, body, {"Depth": depth,
                                                            "Content-Type": "application/xml; charset=utf-8"})
            if status != 207:
                return status, []
            members = []
            for response in ElementTree.fromstring(answer).iter(DAV + "response"):
                href = response.findtext(DAV + "href")
                found = None
                for propstat in response.iter(DAV + "propstat"):
                    if " 200 " in (propstat.findtext(DAV + "status") or ""):
                        found = propstat.find(DAV + "prop")
                types = found.find(DAV + "resourcetype") if found is not None else None
                members.append({"href": href, "found": found is not None,
                                "collection": types is not None and types.find(DAV + "collection") is not None,
                                "calendar": types is not None and types.find(CALDAV + "calendar") is not None,
                                "etag": found.findtext(DAV + "getetag") if found is not None else None})
            return status, members

        def utc(prop):
            if prop is None:
                return None
            moment = prop.dt
            if isinstance(moment, datetime.datetime) and moment.tzinfo is not None:
                return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            return moment.isoformat()

        def text(component, name):
            return str(component[name]) if name in component else None

        def minutes(event):
            if "DURATION" in event:
                return event["DURATION"].dt.total_seconds() / 60
            if "DTEND" in event and "DTSTART" in event:
                return (event["DTEND"].dt - event["DTSTART"].dt).total_seconds() / 60
            return None

        def categories(event):
            values = event.get("CATEGORIES")
            values = [] if values is None else values if isinstance(values, list) else [values]
            return [str(name) for value in values for name in value.cats]

        def alarm(component):
            trigger = component.get("TRIGGER")
            offset = trigger.dt if trigger is not None else None
            return {"action": text(component, "ACTION"), "description": text(component, "DESCRIPTION"),
                    "trigger": int(offset.total_seconds()) if isinstance(offset, datetime.timedelta) else None,
                    "related": trigger.params.get("RELATED") if trigger is not None else None}

        def events():
            import icalendar
            status, members = listing("1")
            if status != 207:
                sys.exit("PROPFIND %s (Depth 1): HTTP %d" % (url, status))
            found = []
            for member in members:
                if not member["found"] or member["collection"]:
                    continue
                status, headers, body = call("GET", member["href"])
                if status != 200:
                    sys.exit("GET %s: HTTP %d" % (member["href"], status))
                for event in icalendar.Calendar.from_ical(body).walk("VEVENT"):
                    found.append({"href": member["href"], "etag": headers.get("ETag") or member["etag"],
                                  "uid": text(event, "UID"), "summary": text(event, "SUMMARY"),
                                  "description": text(event, "DESCRIPTION"), "start": utc(event.get("DTSTART")),
                                  "minutes": minutes(event), "categories": categories(event),
                                  "stamp": utc(event.get("DTSTAMP")),
                                  "alarms": [alarm(a) for a in event.walk("VALARM")],
                                  "ics": body.decode("utf-8")})
            return found

        if operation == "events":
            print(json.dumps(events()))
        elif operation == "exists":
            status, members = listing("0")
            print(json.dumps(status == 207 and any(m["found"] and m["calendar"] for m in members)))
        else:
            method = {"make": "MKCALENDAR", "delete": "DELETE"}[operation]
            print(json.dumps(call(method, sys.argv[6] if len(sys.argv) > 6 else url)[0]))
        """#

    /// Makes the calendar collection `name` (MKCALENDAR) as a person does before nudge first runs; throws unless
    /// the server answers 201.
    func makeCollection(_ name: String) throws {
        let status: Int = try askPython("make", collectionURL(name))
        guard status == 201 else { throw Failure(description: "MKCALENDAR \(collectionURL(name)): HTTP \(status)") }
    }

    /// Whether `name` is a calendar collection on the server (PROPFIND Depth 0: a calendar resourcetype, 200).
    func collectionExists(_ name: String) throws -> Bool {
        try askPython("exists", collectionURL(name))
    }

    /// Deletes the event at `href` as the person would in their calendar; throws unless the server answers 2xx.
    func deleteEvent(href: String) throws {
        let status: Int = try askPython("delete", baseURL + "/", [href])
        guard (200..<300).contains(status) else { throw Failure(description: "DELETE \(href): HTTP \(status)") }
    }

    /// Every VEVENT of the collection `name`, in the order the server lists its members.
    func events(in collection: String) throws -> [Event] {
        try askPython("events", collectionURL(collection))
    }

    private static let pythonHasICalendar = DebianPython.runs("import icalendar")

    /// Runs the client's `operation` on `url` and decodes the JSON it prints.
    private func askPython<Answer: Decodable>(_ operation: String, _ url: String,
                                              _ extra: [String] = []) throws -> Answer {
        guard Self.pythonHasICalendar else {
            throw RealPart.missing("Python's icalendar is not installed (Debian: apt install python3-icalendar); "
                + ".ci/run installs it")
        }
        let result = try ExternalTool.run(DebianPython.path, ["-c", Self.client, operation, url, user, password,
                                                              Self.harnessAgent] + extra, timeout: 60)
        guard result.status == 0 else { throw Failure(description: "the harness's client: \(result.summary)") }
        do {
            return try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8))
        } catch {
            throw Failure(description: "the harness's client printed what is not its JSON (\(error)):\n"
                + result.summary)
        }
    }
}
