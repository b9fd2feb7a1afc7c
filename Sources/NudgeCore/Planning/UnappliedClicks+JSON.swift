import FoundationEssentials

/// The unapplied clicks' member of `state.json`: `unappliedClicks`, each with its notification's id and title, the
/// action and its label, when it was clicked and why it was not applied.
extension UnappliedClicks {
    /// The members of state.json the clicks write (the manual and docs/files.md list them from here).
    public static let stateKeys = ["unappliedClicks"]

    /// Writes the clicks' member into the state's object, after the members written before it.
    func write(to out: inout PrettyJSONWriter) {
        out.key("unappliedClicks")
        out.open("[")
        for click in clicks {
            out.element()
            out.open("{")
            out.key("id"); out.string(click.id)
            out.key("title"); out.string(click.title)
            out.key("action"); out.string(click.action)
            out.key("label"); out.string(click.label)
            out.key("clickedAt"); out.instant(click.clickedAt)
            out.key("reason"); out.string(click.reason)
            out.close("}")
        }
        out.close("]")
    }

    /// Reads the clicks from the state's object `root`, reporting each one it refuses.
    static func read(_ root: ObjectReader, _ document: DocumentReader) -> UnappliedClicks {
        var clicks: [UnappliedClick] = []
        for element in root.elements("unappliedClicks") {
            guard let object = ObjectReader(element, in: document), let id = object.string("id"),
                  let title = object.string("title"), let action = object.string("action"),
                  let label = object.string("label"), let clickedAt = object.instant("clickedAt", required: true),
                  let reason = object.string("reason") else {
                document.report(element.path, "is not an unapplied click")
                continue
            }
            clicks.append(UnappliedClick(id: id, title: title, action: action, label: label, clickedAt: clickedAt,
                                         reason: reason))
        }
        return UnappliedClicks(clicks: clicks)
    }
}
