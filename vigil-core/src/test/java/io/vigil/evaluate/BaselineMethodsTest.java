package io.vigil.evaluate;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** {@link BaselineMethods#checkSettings}: a baseline's own setting is refused beside another method, naming both. */
class BaselineMethodsTest {
    @Test
    void aSettingOfAnotherMethodIsRefusedNamingTheMethodsItAppliesTo() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> BaselineMethods.checkSettings(EarlyMethod.VIGIL, 0.1, null, null, null, null));
        assertEquals("--ects-support only applies to --method ects, not --method vigil", e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> BaselineMethods.checkSettings(EarlyMethod.TEASER, null, 0.5, null, null, null));
        assertEquals(
                "--fixed-fraction only applies to --method fixed-qda or fixed-1nn, not --method teaser",
                e.getMessage());
    }

    @Test
    void eachMethodTakesItsOwnSettings() {
        assertDoesNotThrow(() -> BaselineMethods.checkSettings(EarlyMethod.ECTS, 0.1, null, null, null, null));
        assertDoesNotThrow(() -> BaselineMethods.checkSettings(EarlyMethod.FIXED_1NN, null, 0.5, null, null, null));
        assertDoesNotThrow(() -> BaselineMethods.checkSettings(EarlyMethod.TEASER, null, null, 10, 2, "linear"));
        assertDoesNotThrow(() -> BaselineMethods.checkSettings(EarlyMethod.VIGIL, null, null, null, null, null));
    }
}
