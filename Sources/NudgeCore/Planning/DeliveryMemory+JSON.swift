import FoundationEssentials

/// The memory's members of `state.json`: `ledger`, `deliveredIDs`, `settledIDs`, `deliveredDates` and
/// `settledDates`, written last and in that order (`RunState.fileContent`); ids and dates sorted, so the file is
/// deterministic.
extension DeliveryMemory {
    /// The members of state.json the memory writes, in order (the manual and docs/files.md list them from here).
    public static let stateKeys = ["ledger", "deliveredIDs", "settledIDs", "deliveredDates", "settledDates"]

    /// Writes the memory's members into the state's object, after the members written before them.
    func write(to out: inout PrettyJSONWriter) {
        out.key("ledger")
        out.open("{")
        for id in ledger.keys.sorted() {
            guard let entry = ledger[id] else { continue }
            out.key(id)
            out.open("{")
            out.key("outcome"); out.string(entry.outcome.rawValue)
            out.key("kind"); out.string(entry.kind)
            out.key("fireAt"); out.instant(entry.fireAt)
            out.key("expiresAt"); out.instant(entry.expiresAt)
            out.key("at"); out.instant(entry.at)
            out.close("}")
        }
        out.close("}")
        out.key("deliveredIDs")
        out.open("[")
        for id in deliveredIDs.sorted() {
            out.element(); out.string(id)
        }
        out.close("]")
        out.key("settledIDs")
        out.open("{")
        for (id, record) in settledOneOffs.textMembers {
            out.key(id); out.string(record)
        }
        out.close("}")
        out.key("deliveredDates")
        out.open("{")
        for (thread, dates) in deliveredDates.textMembers {
            out.key(thread); out.string(dates)
        }
        out.close("}")
        out.key("settledDates")
        out.open("{")
        for (thread, dates) in settledDates.textMembers {
            out.key(thread); out.string(dates)
        }
        out.close("}")
    }

    /// Reads the one-off ids and the dates of daily repeats delivered or settled from the state's object `root`,
    /// reporting each one it refuses. The state reads them before its other members and the ledger after them all
    /// (`readingLedger`), so that its problems are reported in the order they always were.
    static func readIDsAndDates(_ root: ObjectReader, _ document: DocumentReader) -> DeliveryMemory {
        var deliveredIDs = Set<String>()
        var settledOneOffs = SettledOneOffs()
        var deliveredDates = DeliveredDates()
        var settledDates = SettledDates()
        for element in root.elements("deliveredIDs") {
            guard let id = document.string(element.node) else {
                document.report(element.path, "is not an occurrence id")
                continue
            }
            deliveredIDs.insert(id)
        }
        if let node = root.member("settledIDs"), document.tape.kind(node) == .object,
           let settled = root.object("settledIDs") {
            for member in settled.members() {
                guard let text = document.string(member.node), settledOneOffs.read(id: member.key, text: text) else {
                    document.report(KeyPath.root.appending("settledIDs").appending(member.key),
                                    "is not an outcome with its instant")
                    continue
                }
            }
        } else {
            for element in root.elements("settledIDs") {
                guard let id = document.string(element.node) else {
                    document.report(element.path, "is not an occurrence id")
                    continue
                }
                settledOneOffs.readEarlierVersion(id: id)
            }
        }
        readThreads("deliveredDates", of: root, in: document, expecting: "a list of dates") { thread, text in
            deliveredDates.read(thread: thread, dates: text)
        }
        readThreads("settledDates", of: root, in: document, expecting: "a list of dates with their instants") {
            thread, text in settledDates.read(thread: thread, text: text)
        }
        return DeliveryMemory(deliveredIDs: deliveredIDs, settledOneOffs: settledOneOffs,
                              deliveredDates: deliveredDates, settledDates: settledDates)
    }

    /// This memory with the ledger read from the state's object `root`, one entry per occurrence with an outcome
    /// by its id; reports each entry it refuses.
    func readingLedger(_ root: ObjectReader, _ document: DocumentReader) -> DeliveryMemory {
        var ledger: [String: LedgerEntry] = [:]
        if let object = root.object("ledger") {
            for member in object.members() {
                let path = KeyPath.root.appending("ledger").appending(member.key)
                guard let entry = ObjectReader(member.node, at: path, in: document),
                      let outcome = entry.string("outcome").flatMap(LedgerEntry.Outcome.init(rawValue:)),
                      let kind = entry.string("kind"),
                      let fireAt = entry.instant("fireAt", required: true),
                      let expiresAt = entry.instant("expiresAt", required: true),
                      let at = entry.instant("at", required: true) else {
                    document.report(path, "is not a valid ledger entry")
                    continue
                }
                ledger[member.key] = LedgerEntry(outcome: outcome, kind: kind, fireAt: fireAt, expiresAt: expiresAt,
                                                 at: at)
            }
        }
        return DeliveryMemory(ledger: ledger, deliveredIDs: deliveredIDs, settledOneOffs: settledOneOffs,
                              deliveredDates: deliveredDates, settledDates: settledDates)
    }

    /// Reads each member of the object `key`, a thread's text, with `read`; reports each one it refuses.
    private static func readThreads(_ key: String, of root: ObjectReader, in document: DocumentReader,
                                    expecting expected: String, _ read: (String, String) -> Bool) {
        guard let threads = root.object(key) else { return }
        for member in threads.members() {
            guard let text = document.string(member.node), read(member.key, text) else {
                document.report(KeyPath.root.appending(key).appending(member.key), "is not \(expected)")
                continue
            }
        }
    }
}
