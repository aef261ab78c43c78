import './notifications.types.ts';
import './notification-preferences.query.ts';
import './update-notification-preferences.mutation.ts';
import './register-device.mutation.ts';
import './unregister-device.mutation.ts';
import './notification-outbox.query.ts';
import './web-push-public-key.query.ts';
