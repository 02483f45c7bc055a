import { WEBHOOK_EVENT_TYPES } from "@/lib/db/outbox";

/** The event check boxes of an endpoint's form ("*" is every event, now and later). */
export function EventsField({ selected }: { selected: readonly string[] }) {
  return (
    <fieldset>
      <legend>Events</legend>
      <label className="check">
        <input type="checkbox" name="events" value="*" defaultChecked={selected.includes("*")} /> Every event (also ones added later)
      </label>
      {WEBHOOK_EVENT_TYPES.map((type) => (
        <label key={type} className="check">
          <input type="checkbox" name="events" value={type} defaultChecked={selected.includes(type)} /> <code>{type}</code>
        </label>
      ))}
    </fieldset>
  );
}
