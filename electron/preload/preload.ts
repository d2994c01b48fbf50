import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { AppBridge, ChannelName, PickedFile } from '../../shared/ipc/channels';
import { IPC_PREFIX } from '../../shared/ipc/channels';

// The renderer gets exactly one typed method per channel and an event subscription; never
// ipcRenderer itself. `satisfies AppBridge` makes a missing or extra channel a type error.
const invoke = (channel: ChannelName) => (input: unknown) => ipcRenderer.invoke(`${IPC_PREFIX}${channel}`, input);

const bridge = {
  getAppInfo: invoke('getAppInfo'),
  getSettings: invoke('getSettings'),
  setLocale: invoke('setLocale'),
  saveProvider: invoke('saveProvider'),
  deleteProvider: invoke('deleteProvider'),
  setRoleModel: invoke('setRoleModel'),
  setGeneral: invoke('setGeneral'),
  testProvider: invoke('testProvider'),
  runSystemCheck: invoke('runSystemCheck'),
  cadgenListExamples: invoke('cadgenListExamples'),
  cadgenValidate: invoke('cadgenValidate'),
  cadgenBuild: invoke('cadgenBuild'),
  cadgenGetArtifact: invoke('cadgenGetArtifact'),
  genStart: invoke('genStart'),
  genList: invoke('genList'),
  genShow: invoke('genShow'),
  genLedger: invoke('genLedger'),
  genResume: invoke('genResume'),
  genAnswer: invoke('genAnswer'),
  genExportZip: invoke('genExportZip'),
  genModelStatus: invoke('genModelStatus'),
  genCheckModel: invoke('genCheckModel'),
  genCancel: invoke('genCancel'),
  genGetArtifact: invoke('genGetArtifact'),
  genMakeDrawing: invoke('genMakeDrawing'),
  reviewGetDrawing: invoke('reviewGetDrawing'),
  reviewOpenSample: invoke('reviewOpenSample'),
  reviewOpenDxf: invoke('reviewOpenDxf'),
  reviewConnectCad: invoke('reviewConnectCad'),
  reviewRefreshDrawing: invoke('reviewRefreshDrawing'),
  reviewFrameImage: invoke('reviewFrameImage'),
  reviewViewImage: invoke('reviewViewImage'),
  reviewPickEntities: invoke('reviewPickEntities'),
  reviewGetEntity: invoke('reviewGetEntity'),
  reviewDownloadFile: invoke('reviewDownloadFile'),
  reviewStart: invoke('reviewStart'),
  reviewCancel: invoke('reviewCancel'),
  reviewResume: invoke('reviewResume'),
  reviewListRuns: invoke('reviewListRuns'),
  reviewGetRun: invoke('reviewGetRun'),
  reviewRunImage: invoke('reviewRunImage'),
  reviewDecide: invoke('reviewDecide'),
  reviewPreviewWrite: invoke('reviewPreviewWrite'),
  reviewWriteApproved: invoke('reviewWriteApproved'),
  reviewSetCreate: invoke('reviewSetCreate'),
  reviewSetAddFile: invoke('reviewSetAddFile'),
  reviewSetStart: invoke('reviewSetStart'),
  reviewSetCancel: invoke('reviewSetCancel'),
  reviewListSets: invoke('reviewListSets'),
  reviewGetSet: invoke('reviewGetSet'),
  reviewSetDownload: invoke('reviewSetDownload'),
  visionListSessions: invoke('visionListSessions'),
  visionGetSession: invoke('visionGetSession'),
  visionAnalyze: invoke('visionAnalyze'),
  visionZoom: invoke('visionZoom'),
  visionGetImage: invoke('visionGetImage'),
  visionRenameSession: invoke('visionRenameSession'),
  visionDeleteSession: invoke('visionDeleteSession'),
  // Only the path of a File object the page holds (one the user picked or dropped) can be asked for.
  pathForFile: (file: PickedFile) => webUtils.getPathForFile(file as File),
  on(event: string, listener: (payload: never) => void) {
    const handler = (_e: unknown, message: { event: string; payload: unknown }) => {
      if (message.event === event) listener(message.payload as never);
    };
    ipcRenderer.on(`${IPC_PREFIX}event`, handler);
    return () => {
      ipcRenderer.removeListener(`${IPC_PREFIX}event`, handler);
    };
  },
} satisfies AppBridge;

contextBridge.exposeInMainWorld('cadsight', bridge);
