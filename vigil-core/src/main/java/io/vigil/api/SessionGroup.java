package io.vigil.api;

import io.vigil.early.EarlyClassifier;

/**
 * Sessions of one {@link Vigil} that share one scratch workspace ({@link EarlyClassifier.Workspace}: the conditional
 * mean, the rule's sets, local QDA's search buffers and discriminants, tens of kilobytes for a model of a few
 * thousand training series). A session's decisions depend only on its series' state: the workspace holds nothing
 * from one call to the next that a call does not overwrite first (the discriminants' per-class buffers are refilled
 * or kept only when bitwise equal to what the call would write), so sessions that share it decide exactly as
 * sessions with workspaces of their own. What it saves is memory and cache: the ⌈D/S⌉ open windows of a watched key,
 * or every key of a stream operator, hold one workspace instead of one each. Not thread-safe: the group and all its
 * sessions belong to one thread.
 */
public final class SessionGroup {
    private final Vigil vigil;
    private final EarlyClassifier.Workspace workspace;

    SessionGroup(Vigil vigil) {
        this.vigil = vigil;
        this.workspace = vigil.classifier().newWorkspace();
    }

    /** A new series with nothing observed, deciding with the group's workspace. */
    public VigilSession newSession() {
        return new VigilSession(vigil, workspace);
    }

    /** The vigil the group's sessions decide with. */
    public Vigil vigil() {
        return vigil;
    }
}
