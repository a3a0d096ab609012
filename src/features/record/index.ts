export { RecordControl } from './RecordControl';
export { ReplayBar } from './ReplayBar';
export { openRecordingFrom } from './open';
export { RecordingDrop } from './RecordingDrop';
export { useReplay } from './useReplay';
export { TimeTravel } from './TimeTravel';
