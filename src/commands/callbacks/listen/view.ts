// What kct callbacks listen prints of a delivery: a line for people, a record for json and
// ndjson, columns for csv.
import type { Column } from '../../../cli/render/rows.js';
import { isPlainObject } from '../../../client/envelope.js';

export interface Delivery {
  id: string;
  timestamp: string;
  /** This webhook-id was handled before (deliveries.ts). */
  duplicate: boolean;
  forwarded?: { status: number; error?: string };
  event: unknown;
  /** Signed correctly, but its body is not JSON: why. */
  eventError?: string;
}

/** An event's fields, read leniently: the table's line says what it can. */
function eventData(delivery: Delivery): { event: Record<string, unknown>; data: Record<string, unknown> } {
  const event = isPlainObject(delivery.event) ? delivery.event : {};
  return { event, data: isPlainObject(event.data) ? event.data : {} };
}

/** What a person reads of an event: when, its id, type, task, status and counts, on one line. */
export function eventLine(delivery: Delivery): string {
  const { event, data } = eventData(delivery);
  const counts = ['succeeded', 'failed', 'cancelled']
    .filter((key) => typeof data[key] === 'number' && (data[key] as number) > 0)
    .map((key) => `${data[key] as number} ${key}`);
  return [
    receivedAt(delivery),
    delivery.id,
    String(event.type ?? 'event'),
    String(data.task_id ?? ''),
    String(data.status ?? ''),
    typeof data.count === 'number'
      ? `${data.count} item${data.count === 1 ? '' : 's'}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`
      : '',
    delivery.eventError ? '(body not JSON)' : '',
    delivery.duplicate ? '(repeat delivery)' : '',
    delivery.forwarded ? `-> ${delivery.forwarded.error ?? `HTTP ${delivery.forwarded.status}`}` : '',
  ]
    .filter(Boolean)
    .join('  ');
}

function receivedAt(delivery: Delivery): string {
  return new Date(Number(delivery.timestamp) * 1000 || Date.now()).toISOString();
}

/** What json and ndjson print of a delivery: its headers' values and the event as signed. */
export function eventRecord(delivery: Delivery): Record<string, unknown> {
  return {
    webhook_id: delivery.id,
    webhook_timestamp: Number(delivery.timestamp),
    duplicate: delivery.duplicate,
    ...(delivery.forwarded ? { forwarded_status: delivery.forwarded.status } : {}),
    ...(delivery.forwarded?.error ? { forward_error: delivery.forwarded.error } : {}),
    event: delivery.event,
    ...(delivery.eventError ? { event_error: delivery.eventError } : {}),
  };
}

/** What csv prints of a delivery (json and ndjson print eventRecord, the table a line). */
export const EVENT_COLUMNS: Column<Delivery>[] = [
  { name: 'webhook_id', header: 'Delivery', value: (d) => d.id },
  { name: 'webhook_timestamp', header: 'Time', value: (d) => Number(d.timestamp) },
  { name: 'duplicate', header: 'Repeat', value: (d) => d.duplicate },
  { name: 'forwarded_status', header: 'Forwarded', value: (d) => d.forwarded?.status ?? null },
  { name: 'type', header: 'Event', value: (d) => eventData(d).event.type ?? null },
  { name: 'task_id', header: 'Task', value: (d) => eventData(d).data.task_id ?? null },
  { name: 'status', header: 'Status', value: (d) => eventData(d).data.status ?? null },
  { name: 'count', header: 'Items', value: (d) => eventData(d).data.count ?? null },
];
