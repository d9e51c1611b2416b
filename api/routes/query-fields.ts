/** Query fields several route families share. */
import { z } from "zod";

/** A required calendar day YYYY-MM-DD (2026-02-30 is refused), the messages naming the parameter. */
export const calendarDay = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${what} must be a date YYYY-MM-DD`)
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), `${what} is not a calendar date`);
