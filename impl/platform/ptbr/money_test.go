package ptbr

import "testing"

func TestMoney(t *testing.T) {
	for _, tt := range []struct{ minor, cur, want string }{
		{"123456", "BRL", "R$ 1.234,56"},
		{"-311245", "BRL", "-R$ 3.112,45"},
		{"5", "BRL", "R$ 0,05"},
		{"0", "BRL", "R$ 0,00"},
		{"-0", "BRL", "R$ 0,00"},
		{"254967", "USD", "US$ 2.549,67"},
		{"1500", "JPY", "JPY 1.500"},
		{"1250", "KWD", "KWD 1,250"},
		{"123456789012345678901234", "BRL", "R$ 1.234.567.890.123.456.789.012,34"},
	} {
		if got := Money(tt.minor, tt.cur); got != tt.want {
			t.Errorf("Money(%s, %s) = %q, want %q", tt.minor, tt.cur, got, tt.want)
		}
	}
	if got := Day("2026-10-31"); got != "31/10/2026" {
		t.Errorf("Day = %q", got)
	}
}
