import { useApp, useT } from '../../../store/StoreContext';

/** Layer visibility toggles for the viewer; layers off or frozen in the file stay hidden (shown as such). */
export function LayerList() {
  const t = useT();
  const layers = useApp((s) => s.drawing?.layers ?? []);
  const hidden = useApp((s) => s.hiddenLayers);
  const toggleLayer = useApp((s) => s.toggleLayer);
  const showAllLayers = useApp((s) => s.showAllLayers);
  if (layers.length === 0) return null;
  return (
    <div className="viewer-layers" data-testid="viewer-layers">
      <div className="viewer-layers-head">
        <strong>{t('review.viewer.layersTitle', { count: layers.length })}</strong>
        <button type="button" className="btn-ghost" disabled={hidden.length === 0} onClick={showAllLayers} data-testid="layers-show-all">
          {t('review.viewer.showAll')}
        </button>
      </div>
      <ul>
        {layers.map((layer) => {
          const offInFile = !layer.on || layer.frozen;
          return (
            <li key={layer.name}>
              <label className="checkbox" title={offInFile ? t('review.viewer.offInFile') : layer.name}>
                <input
                  type="checkbox"
                  checked={!offInFile && !hidden.includes(layer.name)}
                  disabled={offInFile}
                  onChange={() => toggleLayer(layer.name)}
                  data-testid={`layer-toggle-${layer.name}`}
                />
                <span className="layer-name">{layer.name}</span>
                <span className="hint">{offInFile ? t('review.viewer.offInFile') : (layer.entityCount ?? '')}</span>
              </label>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
