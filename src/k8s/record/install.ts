import { setTransportHooks } from '../client/transportHooks';
import { beginExchange } from './recorder';
import { activeReplay } from './replay';

/**
 * Plugs the recorder and replay into the transport (k8s/client's hooks): called once by app/ at
 * boot, and by tests that record. The client itself knows nothing of recording.
 */
export function installRecordingHooks(): void {
  setTransportHooks({ begin: beginExchange, replay: activeReplay });
}
