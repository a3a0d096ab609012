export { RecordControl } from './RecordControl';
export { ReplayBar } from './ReplayBar';
export { openRecording, openRecordingFrom, momentLink } from './open';
export { RecordingDrop } from './RecordingDrop';
export { useReplay } from './useReplay';
export { TimeTravel } from './TimeTravel';
