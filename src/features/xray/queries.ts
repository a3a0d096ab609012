// What the Clients view asks the explorer's proxy (protocol/xray.ts's routes).
import { queryOptions } from '@tanstack/react-query';
import { proxyJson } from '../../k8s/client';
import { XRAY_INFO_PATH, type XrayEndpointInfo } from '../../../protocol/xray';

export const xrayInfoQuery = () => queryOptions({ queryKey: ['proxy', 'xray', 'info'], queryFn: ({ signal }) => proxyJson<XrayEndpointInfo>(XRAY_INFO_PATH, { signal }), retry: 1 });
