/** The notification queue (table `notifications`): one row per recipient. No GraphQL here. */
import type { Db } from '../../lib/db.ts';
import type { NotificationCategory } from '../../lib/vocabulary.ts';

export interface NotificationEvent {
  category: NotificationCategory;
  /** Recipients; duplicates are queued once. */
  userIds: readonly number[];
  /** Short, client-neutral sentences: a push shows them as they are. */
  title: string;
  body: string;
  /** What a client needs to open the right screen (ids, kinds); never secrets. */
  data?: Record<string, string | number | boolean | null>;
  /**
   * When the event happened (the caller's clock); absent: when the row is written. Quiet hours are judged at this
   * moment as well as at delivery, so the caller's clock decides whether an event of the quiet hours is dropped.
   */
  at?: Date;
}

/** Queues the event for each recipient; answers how many rows it queued. */
export async function queueNotification(db: Db, event: NotificationEvent): Promise<number> {
  const userIds = [...new Set(event.userIds)];
  if (userIds.length === 0) return 0;
  const { count } = await db.notification.createMany({
    data: userIds.map((user_id) => ({
      user_id,
      category: event.category,
      title: event.title,
      body: event.body,
      data: event.data ?? {},
      ...(event.at ? { created_at: event.at } : {}),
    })),
  });
  return count;
}
