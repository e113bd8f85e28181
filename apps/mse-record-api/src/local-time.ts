/** `2026-06-01T14:03:07.123+02:00`: the instant on the wall clock of an IANA time zone. */
export function localIsoTime(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZoneName: "longOffset",
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const zone = part("timeZoneName"); // "GMT", "GMT+02:00", "GMT-03:30"
  const offset = zone === "GMT" || zone === "" ? "+00:00" : zone.replace(/^GMT/, "");
  const ms = String(at.getUTCMilliseconds()).padStart(3, "0");
  return `${part("year")}-${part("month")}-${part("day")}T${part("hour")}:${part("minute")}:${part("second")}.${ms}${offset}`;
}
