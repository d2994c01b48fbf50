import { useEffect } from 'react';
import { useApp, useT } from '../../../store/StoreContext';
import { NewPartForm } from './NewPartForm';
import { TaskList } from './TaskList';
import { TaskView } from './TaskView';

/** Generate → "Describe a part": the task list beside the new-part form or the open task, followed live. */
export function WordsMode() {
  const t = useT();
  const follow = useApp((s) => s.followGenEvents);
  const loadTasks = useApp((s) => s.loadGenTasks);
  const openId = useApp((s) => s.genOpen?.taskId ?? null);
  useEffect(() => follow(), [follow]);
  useEffect(() => {
    void loadTasks();
  }, [loadTasks]);
  return (
    <>
      <p className="muted">{t('gen.intro')}</p>
      <div className="gen-layout">
        <TaskList />
        <div className="gen-main">{openId === null ? <NewPartForm /> : <TaskView />}</div>
      </div>
    </>
  );
}
