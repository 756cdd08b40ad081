/// The page's editing gestures, after the main script (`ServePageAssets.script`, whose
/// `window.flowPost` and `window.flowSay` it uses): the palette adds a node (asking for the
/// kind's required params), a drag from an output's circle to an input's circle connects them,
/// a click selects a node and Delete (or Backspace) removes it. Each gesture is one request
/// (`/add`, `/connect`, `/delete`), so one store mutation; a refusal (a cycle, a type mismatch)
/// is shown with the store's message and changes nothing. The picture is drawn again by the
/// structure event that follows.
enum ServePageEditor {
  static let script = #"""
    (() => {
      "use strict";
      const graph = document.getElementById("graph");
      let selected = null;
      let drag = null;

      function answered(result, done) {
        if (!result.ok || result.data.ok === false) {
          window.flowSay(result.data.error || ("HTTP " + result.status), true);
          return false;
        }
        window.flowSay(done, false);
        return true;
      }
      function select(node) {
        document.querySelectorAll(".node.selected").forEach((other) => other.classList.remove("selected"));
        selected = node ? node.dataset.node : null;
        if (node) { node.classList.add("selected"); }
      }

      const palette = document.querySelector('select[data-action="add"]');
      palette.addEventListener("change", async () => {
        const option = palette.selectedOptions[0];
        const kind = palette.value;
        palette.value = "";
        if (!kind) { return; }
        // A kind's required params are asked for (lists and records as JSON).
        const params = {};
        for (const entry of (option.dataset.required || "").split(" ").filter((text) => text)) {
          const [name, type] = entry.split(":");
          const value = window.prompt(kind + ": " + name + " (" + type + ")");
          if (value === null) { return; }
          params[name] = value;
        }
        const result = await window.flowPost("/add", { kind, params });
        answered(result, "added " + (result.data.id || kind));
      });

      graph.addEventListener("pointerdown", (event) => {
        const output = event.target.closest("[data-out]");
        if (output) {
          drag = { node: output.closest("[data-node]").dataset.node, port: output.dataset.out };
          graph.classList.add("connecting");
          event.preventDefault();
          return;
        }
        if (event.target.closest("input")) { return; }
        select(event.target.closest("[data-node]"));
      });
      document.addEventListener("pointerup", async (event) => {
        if (!drag) { return; }
        const from = drag;
        drag = null;
        graph.classList.remove("connecting");
        const under = document.elementFromPoint(event.clientX, event.clientY);
        const input = under && under.closest("[data-in]");
        if (!input) { return; }
        const target = input.closest("[data-node]").dataset.node;
        const result = await window.flowPost("/connect", { source: from.node, sourcePort: from.port, target, targetPort: input.dataset.in });
        answered(result, "connected " + from.node + "." + from.port + " \u2192 " + target + "." + input.dataset.in);
      });
      document.addEventListener("keydown", async (event) => {
        if (!selected || (event.key !== "Delete" && event.key !== "Backspace")) { return; }
        if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) { return; }
        event.preventDefault();
        const id = selected;
        select(null);
        answered(await window.flowPost("/delete", { node: id }), "deleted " + id);
      });
    })();
    """#
}
